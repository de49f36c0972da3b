import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.sigmoid()
c = b * 2
b.mul_(3)
err = None
try:
    c.sum().backward()
    err2 = None
    b2 = a.exp()
    b2.add_(1)
    b2.sum().backward()
except RuntimeError as e:
    err = "modified by an inplace operation" in str(e)
x = torch.tensor([1.0, -1.0], requires_grad=True)
y = x.relu()
z = y.clone()
z.add_(1)
z.sum().backward()
report(err=err, gx=x.grad, ver=b._version)
