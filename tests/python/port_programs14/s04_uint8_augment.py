import numpy as np
import torch

rs = np.random.RandomState(5)
img = torch.from_numpy(rs.randint(0, 256, size=(3, 8, 10)).astype(np.uint8))
flipped = torch.flip(img, dims=[2])
crop = img[:, 1:7, 2:9]
f = img.float() / 255.0
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
norm = (f - mean) / std
bright = (img.to(torch.int16) + 40).clamp(0, 255).to(torch.uint8)
gray = (0.299 * f[0] + 0.587 * f[1] + 0.114 * f[2])
back = (gray * 255).round().to(torch.uint8)
wrap = img + 200  # uint8 arithmetic wraps
inv = 255 - img
s = img.sum()
m = img.max()
hist = torch.bincount(img.flatten().long() // 32, minlength=8)
rot = torch.rot90(img, 1, dims=(1, 2))
report(flipped=flipped[:, 0], crop_sum=crop.sum(), norm=norm.mean(dim=(1, 2)), bright=bright[0, 0], back=back[0],
       wrap=wrap[0, 0], wrap_dtype=wrap.dtype, inv=inv[1, 1], s=s, sdt=s.dtype, m=m, mdt=m.dtype, hist=hist,
       rot=rot.shape, rot0=rot[0, 0], div_dtype=(img / 2).dtype, floordiv=(img // 3)[0, 0], mean=img.float().mean())
