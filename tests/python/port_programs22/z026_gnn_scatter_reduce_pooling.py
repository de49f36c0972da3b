import torch

src = data(7, 3, seed=30)
index = torch.tensor([0, 0, 1, 2, 2, 2, 4])
n = 5
idx = index.unsqueeze(-1).expand_as(src)
s = torch.zeros(n, 3).scatter_reduce(0, idx, src, reduce="sum", include_self=False)
mx = torch.full((n, 3), float("-inf")).scatter_reduce(0, idx, src, reduce="amax", include_self=True)
mean = torch.zeros(n, 3).scatter_reduce(0, idx, src, reduce="mean", include_self=False)
mean_self = torch.ones(n, 3).scatter_reduce(0, idx, src, reduce="mean", include_self=True)
mn = torch.zeros(n, 3).scatter_reduce(0, idx, src, reduce="amin", include_self=False)
prod = torch.ones(n, 3).scatter_reduce(0, idx, src, reduce="prod")
batch = torch.tensor([0, 0, 0, 1, 1, 1, 1])
counts = torch.bincount(batch)
gmean = torch.zeros(2, 3).index_add_(0, batch, src) / counts.unsqueeze(1)
x = src.clone().requires_grad_()
torch.zeros(n, 3).scatter_reduce(0, idx, x, reduce="amax", include_self=False).sum().backward()
report(s=s, mx=mx, mean=mean, mean_self=mean_self, mn=mn, prod=prod, gmean=gmean, g=x.grad)
