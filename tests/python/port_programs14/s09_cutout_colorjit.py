import numpy as np
import torch

rs = np.random.RandomState(0)
imgs = torch.from_numpy(rs.randint(0, 256, size=(4, 3, 6, 6)).astype(np.uint8))
mask = torch.ones(4, 1, 6, 6, dtype=torch.bool)
mask[:, :, 1:3, 2:5] = False
cut = imgs * mask
x = imgs.to(torch.float32).div_(255)
factors = torch.from_numpy(np.array([0.8, 1.0, 1.2, 1.5], dtype=np.float32)).view(-1, 1, 1, 1)
mean = x.mean(dim=(1, 2, 3), keepdim=True)
contrast = ((x - mean) * factors + mean).clamp_(0, 1)
sat = x.max(dim=1).values - x.min(dim=1).values
out = (contrast * 255).to(torch.uint8)
hflip = imgs.flip(-1)
padded = torch.nn.functional.pad(imgs.float(), (2, 2, 2, 2), mode="reflect")
report(cut=cut[0, 0], cutdt=cut.dtype, contrast=contrast[:, 0, 0, 0], sat=sat[0, 0], out=out[1, 2, 3], hflip=hflip[0, 0, 0],
       pad=padded.shape, p0=padded[0, 0, 0], nz=mask.logical_not().sum())
