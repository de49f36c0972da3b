import torch

a = torch.ones(3, requires_grad=True)
b = a * 2
c = b.sigmoid()
v0 = c._version
errs = []
c.add_(1)
try:
    c.sum().backward()
except RuntimeError as e:
    errs.append("modified" in str(e))
x = torch.zeros(3)
x.add_(1).mul_(3).sub_(torch.tensor([1.0, 2.0, 3.0])).div_(2).pow_(2).sqrt_().neg_().abs_().clamp_(max=0.6)
y = torch.arange(6.0).view(2, 3)
y.t_()
z = torch.ones(2, 3)
z.unsqueeze_(0).transpose_(1, 2).squeeze_()
report(v=[v0, c._version], errs=errs, x=x, y=y, ys=list(y.stride()), z=list(z.shape), leaf_err=_try() if False else None)
