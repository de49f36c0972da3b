import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(1, 2, 6, 7)
amp, aidx = F.adaptive_max_pool2d(x, (2, 3), return_indices=True)
m1, i1 = F.max_pool1d(x[:, :, 0], 3, stride=2, return_indices=True, ceil_mode=True)
un1 = F.max_unpool1d(m1, i1, 3, stride=2, output_size=[7])
lp = nn.LPPool2d(2, 2)(x.abs())
lp1 = F.lp_pool1d(x[:, :, 1], 3.0, 2)
ap3 = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=True)
ap_div = F.avg_pool2d(x, 2, divisor_override=3)
aap = F.adaptive_avg_pool2d(x, (4, 5))
mp_dil = F.max_pool2d(x, 2, stride=1, dilation=2)
fold = F.fold(F.unfold(x, 2, stride=2), (6, 6), 2, stride=2)
ps = nn.PixelShuffle(2)(data(1, 8, 2, 2))
pu = nn.PixelUnshuffle(2)(ps)
report(amp=amp[0, 1], aidx=aidx[0, 0], m1=m1, i1=i1, un1=un1, lp=lp[0, 0], lp1=lp1, ap3=ap3[0, 0], ap_div=ap_div[0, 1], aap=aap[0, 0, 1],
       mp_dil=mp_dil[0, 0, 0], fold=fold.shape, fold_eq=torch.equal(fold, x[..., :6, :6]), ps=ps[0, 0], pu_eq=torch.equal(pu, data(1, 8, 2, 2)))
