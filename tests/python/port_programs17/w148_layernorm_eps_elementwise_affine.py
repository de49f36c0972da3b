import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(2, 3, 4, seed=1) * 1e-3
a = nn.LayerNorm(4, eps=1e-12)(x)
b = nn.LayerNorm(4, eps=1e-5)(x)
c = nn.LayerNorm([3, 4], elementwise_affine=False)(x)
d = nn.LayerNorm(4, bias=False)
e = F.layer_norm(x, (4,), weight=torch.arange(4.0), bias=None, eps=1e-6)
gn = F.group_norm(x.transpose(1, 2), 2, eps=1e-5)
inst = F.instance_norm(x, eps=1e-5)
rms = nn.RMSNorm(4, eps=1e-6)(x) if hasattr(nn, "RMSNorm") else None
report(a=a[0], b=b[0], c=c[1], dkeys=sorted(d.state_dict().keys()), e=e[1, 2], gn=gn[0, 0], inst=inst[0, 1], rms=rms[1, 0], r=repr(d))
# TOL 1e-3
