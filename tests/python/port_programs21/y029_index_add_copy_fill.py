import torch

x = torch.zeros(5, 3)
src = data(4, 3, seed=1)
x.index_add_(0, torch.tensor([0, 2, 2, 4]), src, alpha=2.0)
y = torch.zeros(5, 3).index_copy_(0, torch.tensor([4, 0, 1, 3]), src)
z = data(3, 4, seed=2).index_fill_(1, torch.tensor([0, 2]), -1.0)
w = torch.arange(6).view(2, 3).index_fill(0, torch.tensor([1]), 9)
v = torch.zeros(2, 4).index_add(1, torch.tensor([3, 3, 0]), torch.ones(2, 3))
sel = torch.index_select(src, 1, torch.tensor([2, 0]))
r = torch.zeros(4).index_reduce_(0, torch.tensor([0, 0, 3, 1]), torch.tensor([2.0, 3.0, 4.0, 5.0]), "prod",
                                 include_self=False)
report(x=x, y=y, z=z, w=w, v=v, sel=sel, r=r, dtype=w.dtype)
