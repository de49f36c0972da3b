import torch
import torch.nn as nn

m = det(nn.Linear(2, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(data(3, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
z = m.weight.grad.clone()
opt.zero_grad()
none = m.weight.grad is None
m(data(3, 2)).sum().backward()
m.zero_grad()
report(z=z, none=none, after=m.weight.grad is None, sd=opt.state_dict()["param_groups"][0]["params"],
       defaults=sorted(opt.defaults.keys()))
