# TOL 1e-2
import torch
import torch.nn as nn
m = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.LayerNorm(4), nn.Linear(4, 3)), 0, 0.3).eval()
x = data(2, 3, 6, 6)
ref = m(x)
mb = m.to(torch.bfloat16)
with torch.no_grad():
    ob = mb(x.to(torch.bfloat16))
mh = m.half()
with torch.no_grad():
    oh = mh(x.half())
m.float()
report(ref=ref, ob=ob, obdt=ob.dtype, oh=oh, ohdt=oh.dtype, wdt=m[0].weight.dtype, bndt=m[1].running_mean.dtype)
