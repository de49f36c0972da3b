import torch
x = torch.tensor([float("nan"), -1.0, 0.5, 2.0])
x.requires_grad_()
y = x.clamp(0.0, 1.0)
y.sum().backward()
report(y=y.detach(), g=x.grad, cmin=torch.clamp_min(x.detach(), 0.5), cmax=torch.clamp_max(x.detach(), 0.0), mm=torch.minimum(x.detach(), torch.tensor(0.0)),
       fmin=torch.fmin(x.detach(), torch.tensor(0.0)), lohi=torch.clamp(torch.tensor([1.0, 5.0]), min=3.0, max=2.0))
