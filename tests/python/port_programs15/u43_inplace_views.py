import torch

a = torch.arange(12.).view(3, 4)
v = a[:, 1]
v.mul_(10)
row = a[2]
row += 100
a.t()[0].zero_()
r = {"a": a.clone()}
b = torch.ones(2, 3)
bt = b.T
bt[1].fill_(7)
r["b"] = b
c = torch.arange(6.)
c[::2] = torch.tensor([-1., -2., -3.])
c.clamp_(min=-1.5).neg_()
r["c"] = c
d = torch.zeros(4)
d2 = d.view(2, 2)
d2.diagonal().copy_(torch.tensor([5., 6.]))
r["d"] = d
e = torch.arange(8.).reshape(2, 4)
e.unsqueeze(0)[0, 1, ::3] = 0
r["e"] = e
f = torch.ones(3, requires_grad=True)
g = f * 2
g.add_(1).mul_(f)
g.sum().backward()
r["fgrad"] = f.grad
r["ver"] = torch.zeros(2)._version
h = torch.zeros(2)
h.add_(1)
h[0] = 3
r["hver"] = h._version
k = torch.tensor([3., 1., 2.])
k.exp_().log_().sqrt_()
r["k"] = k
l = torch.randn(3, 3) * 0 + torch.eye(3)
l.masked_fill_(l == 0, -1).abs_()
r["l"] = l
m = torch.zeros(2, 3, dtype=torch.int64)
m.random_(5, 6)
r["m"] = m
n = torch.empty(4).uniform_(2.0, 2.0)
r["n"] = n
o = torch.arange(4.)
o.resize_(2, 2)
r["o"] = o
p = torch.arange(6.).reshape(2, 3)
p.swapaxes_(0, 1) if hasattr(p, "swapaxes_") else p.transpose_(0, 1)
r["p"] = p.shape
report(**r)
