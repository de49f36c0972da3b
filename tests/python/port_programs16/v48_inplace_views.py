import torch

x = torch.zeros(3, 4)
x[:, 0].add_(1)
x.t()[1].mul_(0).add_(2)
x.diagonal().fill_(7)
x.narrow(0, 2, 1).sub_(3)
col = x[:, 3]
col += torch.tensor([10.0, 20.0, 30.0])
v = x.view(12)
v[::5] = -1
u = x.unfold(1, 2, 2)
u[..., 0].clamp_(min=0)
y = torch.arange(6.0).view(2, 3)
yt = y.T
yt[0] = 100
e = y.expand(2, 2, 3)
s = y.as_strided((2, 2), (1, 3))
s.mul_(2)
z = torch.arange(8.0)
z[2:6].copy_(z[0:4].clone())
z2 = torch.arange(8.0)
z2.view(2, 4)[1].zero_()
report(x=x, y=y, e=e, z=z, z2=z2, version=x._version > 0, is_view=col._base is x)
