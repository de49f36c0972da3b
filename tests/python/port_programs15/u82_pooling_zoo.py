import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 1 * 6 * 6, dtype=torch.float32).reshape(1, 1, 6, 6) % 7
r = {}
r["max_ceil"] = F.max_pool2d(x, 4, stride=3, ceil_mode=True)
r["max_pad"] = F.max_pool2d(x, 3, stride=2, padding=1)[0, 0, 0]
r["avg_no_pad_count"] = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)[0, 0, 0]
r["avg_div"] = F.avg_pool2d(x, 2, divisor_override=3)[0, 0, 0]
r["lp"] = nn.LPPool2d(2, 2)(x)[0, 0, 0]
r["lp1d"] = F.lp_pool1d(torch.arange(6.).view(1, 1, 6), 3, 2)
r["adaptive_odd"] = F.adaptive_avg_pool2d(x, (4, 3))[0, 0]
r["adaptive_max_idx"] = F.adaptive_max_pool2d(x, 2, return_indices=True)[1]
r["adaptive_none"] = nn.AdaptiveAvgPool2d((None, 2))(x).shape
r["max1d_dil"] = F.max_pool1d(torch.arange(8.).view(1, 1, 8), 2, stride=1, dilation=3)
r["avg1d"] = nn.AvgPool1d(3, stride=2, padding=1)(torch.arange(7.).view(1, 1, 7))
r["max3d"] = nn.MaxPool3d(2)(torch.arange(27.).view(1, 1, 3, 3, 3))
r["adaptive1d_max"] = F.adaptive_max_pool1d(torch.tensor([[[1., 5, 2, 8, 3]]]), 3)
r["global_max"] = torch.amax(x, dim=(-2, -1))
unpool = nn.MaxUnpool1d(2)
v, i = F.max_pool1d(torch.tensor([[[1., 4, 2, 3, 9, 0]]]), 2, return_indices=True)
r["unpool1d"] = unpool(v, i)

xx = x.clone().requires_grad_()
F.avg_pool2d(xx, 3, stride=2, ceil_mode=True).sum().backward()
r["avg_grad"] = xx.grad[0, 0, -1]
report(**r)
