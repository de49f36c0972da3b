import torch

src = data(3, 5, seed=1)
idx = torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2], [1, 1, 1, 1, 1]])
a = torch.zeros(3, 5).scatter_(0, idx, src)
b = torch.zeros(3, 5).scatter_add_(0, idx, src)
c = torch.ones(3, 5).scatter_(1, torch.tensor([[0], [4], [2]]), 7.0)
d = torch.zeros(3, 5).scatter_(0, idx, src, reduce="add")
e = torch.full((3, 5), 2.0).scatter_(0, idx, src, reduce="multiply")
f = torch.zeros(4).scatter_reduce(0, torch.tensor([0, 1, 0, 1, 3]), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]),
                                   reduce="amax", include_self=False)
g = torch.ones(4).scatter_reduce(0, torch.tensor([0, 1, 0, 1, 3]), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]),
                                  reduce="mean")
h = torch.zeros(4).scatter_reduce_(0, torch.tensor([0, 1, 0, 1, 3]), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]),
                                    reduce="prod", include_self=False)
i = torch.tensor([5.0, 5.0, 5.0, 5.0]).scatter_reduce(0, torch.tensor([0, 0, 2, 2]), torch.tensor([1.0, 9.0, 3.0, 4.0]),
                                                      reduce="amin")
report(b=b, c=c, d=d, e=e, f=f, g=g, h=h, i=i, a_row2=a[2], oop=torch.scatter(torch.zeros(2, 2), 1, torch.tensor([[1], [0]]), 1.0))
