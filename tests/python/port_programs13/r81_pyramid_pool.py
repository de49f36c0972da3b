import torch
import torch.nn.functional as F
x = data(1, 2, 16, 16)
pyr = [x]
for _ in range(3):
    pyr.append(F.avg_pool2d(pyr[-1], 2))
lap = [pyr[i] - F.interpolate(pyr[i + 1], scale_factor=2, mode="bilinear", align_corners=True) for i in range(3)]
spp = torch.cat([F.adaptive_max_pool2d(x, s).flatten(1) for s in (1, 2, 4)], 1)
mp, idx = F.max_pool2d(x, 2, return_indices=True)
unp = F.max_unpool2d(mp, idx, 2)
lp = F.lp_pool2d(x.abs(), norm_type=2, kernel_size=2)
ap = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)
ap2 = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True)
mp1 = F.max_pool1d(x[0, :1], kernel_size=3, stride=2, dilation=2)
near = F.interpolate(pyr[3], size=(5, 7), mode="nearest")
area = F.interpolate(x, size=(5, 5), mode="area")
report(shapes=[list(p.shape) for p in pyr], lap=lap[2][0, 0, 0], spp=list(spp.shape), spp_v=spp[0, :3], unp=(unp != 0).sum(), idx=idx[0, 0, 0], lp=lp[0, 0, 0, :3],
       ap=ap[0, 0, 0, :3], ap2=list(ap2.shape), mp1=list(mp1.shape), near=near[0, 0, :, 0], area=area[0, 1, 0])
