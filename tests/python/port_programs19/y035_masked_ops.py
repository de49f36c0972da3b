import torch
x = torch.arange(6.0).view(2, 3)
m = torch.tensor([[True, False, True], [False, True, False]])
report(ms=x.masked_select(m), mf=x.masked_fill(m, -1), mft=x.masked_fill(m, torch.tensor(9.0)), msc=x.masked_scatter(m, torch.tensor([10.0, 20.0, 30.0])),
       ix=x[m], w=torch.where(m), nz=m.nonzero(), nzt=m.nonzero(as_tuple=True), ct=m.sum(), cm=torch.count_nonzero(m, dim=0), xm=x[~m].sum())
