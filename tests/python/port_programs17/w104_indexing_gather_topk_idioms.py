import torch

x = data(3, 6, seed=1)
v, i = x.topk(3, dim=1, largest=False, sorted=True)
mask = torch.zeros_like(x, dtype=torch.bool).scatter_(1, i, True)
kept = x.masked_select(mask).view(3, 3)
rows = torch.arange(3)[:, None]
picked = x[rows, i]
x2 = x.clone()
x2[x2 < 0] = 0
x3 = x.clone()
x3[[0, 2], [1, 1]] += 10
x4 = x.clone()
x4.index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), accumulate=True)
nz = (x > 0.5).nonzero(as_tuple=True)
report(v=v, i=i, kept=kept, picked=picked, x2=x2[0], x3=x3[:, 1], x4=x4[0, 1], nz=list(nz), am=x.argmax(1, keepdim=True),
       take=x.take(torch.tensor([0, 7, 17])), tad=torch.take_along_dim(x, i, dim=1))
