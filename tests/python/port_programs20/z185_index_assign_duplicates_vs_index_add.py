import torch

x = torch.zeros(5)
idx = torch.tensor([0, 2, 2, 4])
x[idx] += 1
y = torch.zeros(5)
y.index_add_(0, idx, torch.ones(4))
z = torch.zeros(5)
z.index_put_((idx,), torch.ones(4), accumulate=True)
w = torch.zeros(5)
w.scatter_add_(0, idx, torch.ones(4))
p = torch.nn.Parameter(torch.ones(3, 2))
with torch.no_grad():
    p[1].add_(torch.tensor([1.0, 2.0])).div_(2)
    p[:, 0] *= torch.tensor([1.0, 10.0, 100.0])
counts = torch.bincount(idx, minlength=5)
report(x=x, y=y, z=z, w=w, p=p, counts=counts)
