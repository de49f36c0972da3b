import torch
import torch.nn as nn
# TOL 2e-2

m = det(nn.Linear(4, 2)).to(torch.bfloat16)
opt = torch.optim.AdamW(m.parameters(), lr=0.01)
x, y = data(6, 4).bfloat16(), data(6, 2, seed=3).bfloat16()
ls = []
for _ in range(3):
    opt.zero_grad()
    l = nn.functional.mse_loss(m(x), y)
    l.backward()
    opt.step()
    ls.append(l.item())
report(ls=ls, dt=m.weight.dtype, gdt=m.weight.grad.dtype, st=opt.state[m.weight]["exp_avg"].dtype, w=m.weight)
