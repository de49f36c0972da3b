import torch
import torch.nn as nn

x = data(3, 4)
y = x.clone()
y.add_(1).mul_(2).clamp_(min=0.5, max=3.0)
z = torch.zeros(3, 4)
z[:, 1:3] += 1
z[z > 0] *= 5
z.index_add_(0, torch.tensor([0, 0, 2]), torch.ones(3, 4))
w = torch.ones(4)
w.masked_fill_(torch.tensor([True, False, True, False]), -1.0)
v = torch.arange(6.0).view(2, 3)
v.t_()
u = x.clone()
u.relu_()
u.sub_(x, alpha=0.5)
relu = nn.ReLU(inplace=True)
a = x.clone()
b = relu(a)
p = torch.ones(2, 2, requires_grad=True)
q = p * 2
q.add_(1)
q.sum().backward()
c = torch.zeros(5)
c.scatter_(0, torch.tensor([1, 3]), torch.tensor([7.0, 8.0]))
d = torch.zeros(2, 3)
d.copy_(torch.arange(3))
e = torch.ones(3)
e.div_(3).exp_()
f = x.clone()
f.unsqueeze_(0).transpose_(1, 2)
report(y=y, z=z, w=w, v=v, vshape=v.shape, vcont=v.is_contiguous(), u=u, same=b is a, b=b, pg=p.grad, qv=q._version,
       c=c, d=d, e=e, f_shape=f.shape, fill=torch.empty(2).fill_(3).tolist(), zero=x.clone().zero_().sum().item())
