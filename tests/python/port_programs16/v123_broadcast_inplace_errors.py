import torch

out = {}
a = torch.zeros(3, 1)
try:
    a += torch.ones(3, 4)
    out["grow"] = list(a.shape)
except RuntimeError:
    out["grow"] = "RuntimeError"
b = torch.zeros(3, 4)
b += torch.arange(4.0)
b.mul_(torch.tensor([[1.0], [2.0], [3.0]]))
out["b"] = b
c = torch.ones(2, 3)
c.add_(torch.tensor(5.0))
out["c"] = c
d = torch.ones(2, 1, 3)
d = d + torch.ones(4, 1)
out["d"] = list(d.shape)
e = torch.arange(6.0).view(2, 3)
e.t_()
out["e"] = e
out["e_shape"] = list(e.shape)
f = torch.arange(4.0)
f.unsqueeze_(0).unsqueeze_(-1)
out["f"] = list(f.shape)
g = torch.ones(2, 3)
try:
    g.view(3, 2).add_(torch.ones(2))
    out["g"] = g
except RuntimeError:
    out["g"] = "RuntimeError"
w = torch.ones(3, requires_grad=True)
try:
    with torch.no_grad():
        w.mul_(2)
    out["nograd_inplace"] = w.detach()
except RuntimeError:
    out["nograd_inplace"] = "RuntimeError"
y = w * 1
y.add_(1)
y.sum().backward()
out["grad_after_inplace"] = w.grad
v = w.clone()
s = v.sigmoid()
try:
    v.mul_(3)
    s.sum().backward()
    out["version_err"] = "none"
except RuntimeError:
    out["version_err"] = "RuntimeError"
report(**out)
