import torch
import torch.nn as nn

m = det(nn.Linear(3, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
with torch.no_grad():
    m.weight += 1
    m.bias.mul_(0)
    m.weight[0, 0] = 5.0
    m.weight.index_copy_(1, torch.tensor([2]), torch.tensor([[7.0], [8.0]]))
opt.param_groups[0]["params"][0].data.mul_(0.5)
x = data(4, 3)
m(x).sum().backward()
g = m.weight.grad.clone()
m.weight.grad.data.clamp_(-0.1, 0.1)
opt.step()
for p in m.parameters():
    p.grad.detach_()
    p.grad.zero_()
b = torch.zeros(3, dtype=torch.bool)
b |= torch.tensor([True, False, False])
b &= torch.tensor([True, True, False])
i = torch.arange(5)
i[1:3] = i[3:5].clone()
i -= 1
i *= 2
report(w=m.weight, b=m.bias, g=g, grads=[p.grad for p in m.parameters()], bb=b, i=i, v=m.weight._version > 0)
