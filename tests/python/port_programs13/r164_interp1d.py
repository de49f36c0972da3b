import torch
import torch.nn.functional as F
s = data(1, 2, 5)
lin = F.interpolate(s, size=9, mode="linear", align_corners=True)
lin2 = F.interpolate(s, scale_factor=1.5, mode="linear", align_corners=False)
near = F.interpolate(s, size=3, mode="nearest")
nex = F.interpolate(s, size=7, mode="nearest-exact")
area = F.adaptive_avg_pool1d(s, 2)
xq = torch.tensor([0.5, 1.25, 3.9])
xp = torch.arange(5.0); fp = s[0, 0]
idx = torch.searchsorted(xp, xq).clamp(1, 4)
x0, x1 = xp[idx - 1], xp[idx]
interp = fp[idx - 1] + (fp[idx] - fp[idx - 1]) * (xq - x0) / (x1 - x0)
report(lin=lin[0, 0], lin2=lin2[0, 1], near=near[0, 0], nex=nex[0, 1], area=area[0, 0], interp=interp)
