import torch
import torch.nn.functional as F

src = torch.tensor([0, 1, 2, 3, 0, 2, 4, 4])
dst = torch.tensor([1, 1, 1, 0, 2, 3, 3, 0])
N = 5
e = data(8, seed=3).requires_grad_()
emax = torch.full((N,), float("-inf")).scatter_reduce(0, dst, e.detach(), reduce="amax", include_self=True)
ex = torch.exp(e - emax[dst])
denom = torch.zeros(N).scatter_add(0, dst, ex)
alpha = ex / denom[dst]
h = data(N, 2, seed=4)
out = torch.zeros(N, 2).index_add(0, dst, alpha.unsqueeze(-1) * h[src])
out.sum().backward()
mean_in = torch.zeros(N, 2).scatter_reduce(0, dst.unsqueeze(-1).expand(-1, 2), h[src], reduce="mean", include_self=False)
prod = torch.ones(N).scatter_reduce(0, dst, e.detach(), reduce="prod")
amin = torch.zeros(N).scatter_reduce(0, dst, e.detach(), reduce="amin", include_self=False)
report(alpha=alpha.detach(), out=out.detach(), grad=e.grad, mean_in=mean_in, prod=prod, amin=amin, emax=emax)
