import numpy as np
import torch

rs = np.random.RandomState(0)
img = torch.from_numpy(rs.randint(0, 256, size=(6, 5, 3)).astype(np.uint8))
t = img.permute(2, 0, 1).contiguous().float().div(255)
mean = torch.tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
n = (t - mean) / std
back = ((n * std + mean) * 255).round().clamp(0, 255).to(torch.uint8)
gray = (0.299 * t[0] + 0.587 * t[1] + 0.114 * t[2])
u8sum = img.sum()
u8mean = img.float().mean((0, 1))
report(n=n[:, :2], back_eq=torch.equal(back.permute(1, 2, 0), img), gray=gray, u8sum=u8sum, u8sum_dtype=u8sum.dtype,
       u8mean=u8mean, maxc=img.amax((0, 1)), hflip=img.flip(1)[0, :, 0], dt=(img // 2).dtype, add=(img + img)[0, 0])
