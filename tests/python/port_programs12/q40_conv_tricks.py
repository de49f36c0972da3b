import torch
import torch.nn as nn
import torch.nn.functional as F
x = data(2, 4, 7, 7)
res = {}
dw = det(nn.Conv2d(4, 4, 3, groups=4, padding=1, bias=False))
pw = det(nn.Conv2d(4, 6, 1), seed=1)
res["dwsep"] = pw(dw(x))[0, :, 3, 3]
res["same"] = det(nn.Conv2d(4, 2, (3, 5), padding="same", dilation=(2, 1)), seed=2)(x).shape
for pm in ("reflect", "replicate", "circular"):
    res[pm] = det(nn.Conv2d(4, 2, 3, padding=2, padding_mode=pm), seed=3)(x)[1, 1, :, 0]
res["grp"] = det(nn.Conv2d(4, 6, 3, groups=2, stride=2), seed=4)(x)[0, :, 1, 1]
res["c1"] = det(nn.Conv1d(4, 3, 4, stride=3, padding=2), seed=5)(x[:, :, 0])
res["c3"] = det(nn.Conv3d(1, 2, (2, 3, 3), stride=(1, 2, 2)), seed=6)(x[:1, None]).shape
ct = det(nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1), seed=7)
res["ct"] = [ct(x).shape, ct(x)[0, 0, :3, :3]]
res["ct_os"] = ct(x, output_size=[13, 13]).shape
res["ct1"] = det(nn.ConvTranspose1d(4, 2, 4, stride=2, groups=2, dilation=2), seed=8)(x[:, :, 0])
res["amp"] = nn.AdaptiveMaxPool2d((3, 2))(x)[0, 0]
res["amp_idx"] = F.adaptive_max_pool2d(x, 2, return_indices=True)[1][0, 0]
res["avg_nopad"] = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)[0, 0]
res["avg_ceil"] = F.avg_pool2d(x, 2, stride=2, ceil_mode=True).shape
res["max_ceil"] = F.max_pool2d(x, 3, stride=2, ceil_mode=True, padding=1)[0, 0]
res["max_dil"] = F.max_pool2d(x, 2, dilation=2)[0, 0]
res["aap"] = F.adaptive_avg_pool2d(x, (4, 3))[0, 0]
res["lp"] = F.lp_pool2d(x.abs(), 2, 2)[0, 0]
p, i = F.max_pool2d(x, 2, return_indices=True)
res["unpool"] = F.max_unpool2d(p, i, 2, output_size=x.shape[-2:])[0, 0, :2]
res["aap1"] = F.adaptive_avg_pool1d(x[:, :, 0], 3)[0]
res["avg1"] = nn.AvgPool1d(3, stride=2, padding=1)(x[:, :, 0])[0]
res["pads"] = [F.pad(x[0, 0, :2, :2], (1, 2), value=-1), F.pad(x[:1, :1, :3, :3], (1, 1, 2, 0), mode="reflect")[0, 0], F.pad(x[:1, :1, :2, :2], (1, 1, 1, 1), mode="replicate")[0, 0], F.pad(x[:1, :1, :2, :3], (2, 1, 1, 0), mode="circular")[0, 0]]
res["zp"] = nn.ZeroPad2d((1, 0, 0, 1))(x[:1, :1, :2, :2])[0, 0]
res["cp"] = nn.ConstantPad1d(2, 3.5)(x[:1, :1, 0, :2])
xr = x.clone().requires_grad_()
F.conv2d(xr, torch.ones(2, 2, 3, 3), groups=2, stride=2).sum().backward()
res["g"] = xr.grad[0, 0]
report(**res)
