import torch

x = data(2, 3, 4, seed=3)
report(s=x.sum((0, 2)), m=x.mean(dim=[-1, -2], keepdim=True).shape, std=x.std(1, correction=0), var=x.var((0, 1)),
       mx=x.max(dim=2).values, mi=x.min(1).indices, am=x.amax((1, 2)), lse=x.logsumexp((1, 2)), norm=x.norm(dim=(1, 2)),
       nrm1=torch.linalg.vector_norm(x, ord=1, dim=-1), inf=torch.linalg.vector_norm(x, ord=float("inf")), med=x.median(-1).values,
       mode=torch.tensor([[1, 2, 2, 3], [4, 4, 1, 1]]).mode(1), cnt=torch.count_nonzero(x > 0, dim=0), all_=(x > -3).all(dim=1),
       p=x.prod(0), aminmax=list(torch.aminmax(x)), cm=torch.cummax(x[0, 0], 0).indices, sm=x.softmax(0)[1, 0])
