import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(2, 3, 9, 9)
res = {}
res["max_ceil"] = F.max_pool2d(x, 3, stride=2, ceil_mode=True)
res["max_pad_dil"] = nn.MaxPool2d(3, stride=2, padding=1, dilation=2)(x)
res["avg_nopad"] = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)
res["avg_ceil"] = nn.AvgPool2d(2, ceil_mode=True)(x)
res["avg_div"] = F.avg_pool2d(x, 2, divisor_override=3)
res["lp"] = F.lp_pool2d(x.abs(), 2, 3, stride=2)
res["adamax"] = F.adaptive_max_pool2d(x, (4, 3))
res["adaavg"] = nn.AdaptiveAvgPool2d((None, 2))(x)
vals, idx = F.max_pool2d(x, 2, return_indices=True)
res["unpool"] = F.max_unpool2d(vals, idx, 2, output_size=x.shape[-2:])
res["idx"] = idx
res["max1d"] = F.max_pool1d(x[:, :, 0], 4, 2, padding=2)
res["ada1d"] = F.adaptive_avg_pool1d(x[:, :, 0], 4)
res["max3d"] = F.max_pool3d(x.unsqueeze(1), (1, 2, 2))
report(**{k: v for k, v in res.items()}, shapes={k: list(v.shape) for k, v in res.items()})
