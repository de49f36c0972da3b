import torch

x = data(7, 3, seed=1)
seg = torch.tensor([0, 0, 1, 2, 2, 2, 4])
n = int(seg.max()) + 1
sums = torch.zeros(n, 3).index_add_(0, seg, x)
cnt = torch.bincount(seg, minlength=n).clamp(min=1).unsqueeze(1)
mean = sums / cnt
smax = torch.full((n, 3), float("-inf")).scatter_reduce(0, seg.unsqueeze(1).expand(-1, 3), x, reduce="amax")
smean = torch.zeros(n, 3).scatter_reduce(0, seg.unsqueeze(1).expand_as(x), x, reduce="mean", include_self=False)
xg = x.clone().requires_grad_()
out = torch.zeros(n, 3).scatter_add(0, seg.unsqueeze(1).expand(-1, 3), xg * xg)
out.sum().backward()
report(mean=mean, smax=smax, smean=smean, grad=xg.grad, out=out.detach())
