import torch
x = torch.cat([data(10, 2, seed=1) * 0.3 + torch.tensor([2.0, 2.0]), data(10, 2, seed=2) * 0.3 - torch.tensor([2.0, 2.0])])
cent = x[[0, 10]].clone()
for _ in range(10):
    d = torch.cdist(x, cent)
    a = d.argmin(1)
    cent = torch.stack([x[a == k].mean(0) for k in range(2)])
inertia = ((x - cent[a]) ** 2).sum()
report(cent=cent, counts=torch.bincount(a), inertia=inertia, a=a)
