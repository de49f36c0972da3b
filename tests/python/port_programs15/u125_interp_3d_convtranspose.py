import torch
import torch.nn as nn
import torch.nn.functional as F

v = torch.arange(2 * 3 * 3 * 1.0).view(1, 1, 2, 3, 3)
r = {}
r["tri"] = F.interpolate(v, scale_factor=(2, 1, 1), mode="trilinear", align_corners=False)[0, 0, :, 1, 1]
r["tri_ac"] = F.interpolate(v, size=(3, 2, 2), mode="trilinear", align_corners=True)[0, 0, 1]
r["near3d"] = F.interpolate(v, size=(4, 3, 3), mode="nearest")[0, 0, :, 0, 0]
r["lin1d"] = F.interpolate(torch.tensor([[[0.0, 1.0, 4.0]]]), size=5, mode="linear")
r["lin1d_recompute"] = F.interpolate(torch.tensor([[[0.0, 1.0, 4.0]]]), scale_factor=1.7, mode="linear", recompute_scale_factor=True)
ct = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2, dilation=2, bias=False)
det(ct)
x = data(1, 4, 3, 3)
y = ct(x, output_size=(8, 8))
r["ct_shape"] = y.shape
r["ct"] = y[0, 0, 0, :4]
ct1 = det(nn.ConvTranspose1d(2, 3, 4, stride=3, padding=2, output_padding=1), seed=2)
r["ct1"] = ct1(data(1, 2, 4, seed=3))[0, 1]
ct3 = det(nn.ConvTranspose3d(1, 2, 2, stride=2), seed=4)
r["ct3"] = ct3(v).shape
up = nn.Upsample(scale_factor=1.5, mode="bicubic", align_corners=True)
r["bicubic_ac"] = up(torch.arange(16.).view(1, 1, 4, 4))[0, 0, 2]
r["area_up"] = F.interpolate(torch.arange(4.).view(1, 1, 2, 2), scale_factor=2, mode="area")[0, 0, 0]
report(**r)
