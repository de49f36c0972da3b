import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(3, 4)
a = x.clone()
r = F.relu(a, inplace=True)
b = x.clone()
d = F.dropout(b, p=0.5, training=False, inplace=True)
c = x.clone()
F.leaky_relu_(c, 0.1)
e = x.clone()
F.hardtanh(e, -0.5, 0.5, inplace=True)
f = x.clone()
nn.ELU(inplace=True)(f)
g = x.clone()
nn.SiLU(inplace=True)(g)
w = nn.Parameter(x.clone())
with torch.no_grad():
    w[:, :2].clamp_(-0.1, 0.1)
    w.div_(w.norm(dim=1, keepdim=True))
report(r_is_a=r is a, a=a, d_is_b=d is b, c=c, e=e, f=f, g=g, w=w, wn=w.norm(dim=1))
