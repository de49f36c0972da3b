import torch
import torch.nn as nn

m = det(nn.Linear(2, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
log = []
h1 = opt.register_step_pre_hook(lambda o, a, k: log.append("pre"))
h2 = opt.register_step_post_hook(lambda o, a, k: log.append("post"))
x = data(3, 2)
m(x).sum().backward()
opt.step()
opt.zero_grad()
none = m.weight.grad is None
m(x).sum().backward()
opt.zero_grad(set_to_none=False)
zero = m.weight.grad
h1.remove(); h2.remove()
m(x).sum().backward()
opt.step()
m.zero_grad()
report(log=log, none=none, zero=zero, after=m.weight.grad is None, w=m.weight)
