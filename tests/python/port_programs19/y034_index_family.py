import torch
x = torch.zeros(4, 3)
i = torch.tensor([0, 2, 0])
s = torch.arange(9.0).view(3, 3)
report(ia=x.index_add(0, i, s), ia_a=x.index_add(0, i, s, alpha=2), ic=x.index_copy(0, torch.tensor([3, 1, 0]), s),
       ifl=x.index_fill(1, torch.tensor([0, 2]), -1.0), isel=s.index_select(1, torch.tensor([2, 2, 0])),
       ir=torch.ones(4).index_reduce(0, torch.tensor([0, 0, 3]), torch.tensor([2.0, 3.0, 4.0]), "prod"),
       irm=torch.ones(4).index_reduce(0, torch.tensor([0, 0, 3]), torch.tensor([2.0, 3.0, 4.0]), "mean", include_self=False),
       ip=x.index_put((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), accumulate=True))
