import torch
import torch.nn as nn

m = det(nn.Linear(3, 2))
opt = torch.optim.Adam(m.parameters(), lr=torch.tensor(0.01))
x = data(4, 3)
for _ in range(3):
    opt.zero_grad()
    m(x).pow(2).sum().backward()
    opt.step()
m.zero_grad(set_to_none=False)
zg = m.weight.grad
m.train(mode=False)
m.requires_grad_(False)
out = m(x)
report(w=m.weight, zg=zg, training=m.training, rg=out.requires_grad, lr=float(opt.param_groups[0]["lr"]))
