import torch

a = torch.ones(3, requires_grad=True)
b = a * 2
c = b.sigmoid()
c.mul_(2)
err = None
try:
    c.sum().backward()
except RuntimeError as e:
    err = "modified by an inplace operation" in str(e)
d = a.exp()
v0 = d._version
d.add_(1)
v1 = d._version
leaf_err = None
try:
    a.add_(1)
except RuntimeError as e:
    leaf_err = "leaf Variable that requires grad" in str(e)
with torch.no_grad():
    a.add_(1)
report(err=err, v=[v0, v1], leaf_err=leaf_err, a=a.detach(), ok=torch.ones(2, requires_grad=True).relu().mul_(3).sum().item())
