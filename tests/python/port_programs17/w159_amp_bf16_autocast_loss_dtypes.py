import torch
import torch.nn as nn
import torch.nn.functional as F

m = det(nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.ReLU(), nn.Linear(8, 3)))
x = data(5, 4, seed=1)
with torch.autocast("cpu", dtype=torch.bfloat16):
    h = m[0](x)
    ln = m[1](h)
    out = m(x)
    loss = F.cross_entropy(out, torch.tensor([0, 1, 2, 0, 1]))
    sm = out.softmax(-1)
    mm = x @ x.T
    s = out.sum()
loss.backward()
report(dts=[str(t.dtype) for t in (h, ln, out, loss, sm, mm, s)], loss=loss.float(), gd=m[0].weight.grad.dtype, g=m[3].bias.grad, ae=torch.is_autocast_enabled("cpu") if False else None)
# TOL 3e-2
