import torch
x = data(5).requires_grad_()
y = (x.cumsum(0) * torch.arange(5.0)).sum() + x.cumprod(0).sum() + torch.logcumsumexp(x, 0).sum()
y.backward()
report(g=x.grad, rev=x.detach().flip(0).cumsum(0).flip(0))
