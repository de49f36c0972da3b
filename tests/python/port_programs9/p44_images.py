import numpy as np
import torch
import torch.nn.functional as F
img = (np.random.RandomState(0).rand(20, 24, 3) * 255).astype(np.uint8)
t = torch.from_numpy(img)
chw = t.permute(2, 0, 1).contiguous()
f = chw.float() / 255.0
f2 = chw.to(torch.float32).div(255)
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1); std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
norm = (f - mean) / std
batch = norm.unsqueeze(0)
resized = F.interpolate(batch, size=(16, 16), mode="bilinear", align_corners=False, antialias=True)
h, w = resized.shape[-2:]; th, tw = 10, 10
i, j = int(round((h - th) / 2.0)), int(round((w - tw) / 2.0))
crop = resized[..., i:i + th, j:j + tw]
flipped = torch.flip(crop, dims=[-1])
back = ((crop[0] * std + mean).clamp(0, 1) * 255).round().to(torch.uint8)
gray = (0.299 * f[0] + 0.587 * f[1] + 0.114 * f[2])
hist = torch.histc(gray, bins=5, min=0, max=1)
u8 = torch.tensor([250, 10], dtype=torch.uint8)
report(dt=t.dtype, shape=list(chw.shape), f=f[:, 0, 0], eq=torch.equal(f, f2), norm=norm[:, 2, 3], crop=crop[0, 0, 0], flipped=flipped[0, 1, :3], back=back[:, 0, :4],
       hist=hist, u8add=u8 + u8, u8mul=(u8 * 2).dtype, u8sum=u8.sum(), u8f=u8.float() * 0.5, np_back=back.numpy().dtype.name, max=t.max().item(), mm=f.amax(dim=(1, 2)))
