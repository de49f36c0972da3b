import torch
import torch.nn as nn
import torch.nn.functional as F

lin = det(nn.Linear(4, 4))
conv = det(nn.Conv1d(2, 2, 3), seed=2)
x = data(3, 4)
s = data(1, 2, 6, seed=5)
with torch.autocast("cpu", dtype=torch.bfloat16):
    h = lin(x)
    mm = x @ x.T
    sm = F.softmax(h, -1)
    ls = F.log_softmax(h, -1)
    ln = F.layer_norm(h, (4,))
    add = h + x
    relu = F.relu(h)
    c = conv(s)
    ce = F.cross_entropy(h, torch.tensor([0, 1, 2]))
    mse = F.mse_loss(h, x)
    bmm = torch.bmm(x[None], x.T[None])
    summ = h.sum()
    with torch.autocast("cpu", enabled=False):
        plain = lin(x)
        plain_in = lin(h.float())
    gelu = F.gelu(h)
names = dict(h=h, mm=mm, sm=sm, ls=ls, ln=ln, add=add, relu=relu, c=c, ce=ce, mse=mse, bmm=bmm, summ=summ, plain=plain, plain_in=plain_in, gelu=gelu)
report(dtypes={k: v.dtype for k, v in names.items()}, h=h.float(), ce=ce.float().item(), plain=plain,
       enabled=torch.is_autocast_enabled(), dt=torch.get_autocast_dtype("cpu"))
