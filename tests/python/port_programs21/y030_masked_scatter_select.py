import torch

x = torch.zeros(3, 4)
mask = torch.tensor([[True, False, True, False], [False, False, False, True], [True, True, False, False]])
src = torch.arange(1.0, 13.0).view(3, 4)
x.masked_scatter_(mask, src)
y = torch.zeros(4).masked_scatter(torch.tensor([False, True, True, False]), torch.tensor([5.0, 6.0, 7.0]))
bm = torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.arange(10.0))
ms = torch.masked_select(src, mask)
mf = src.masked_fill(mask, 0.0)
mf2 = src.masked_fill(torch.tensor([True, False, False, True]), float("nan"))
w = torch.where(mask, src, torch.tensor(-1.0))
w2 = torch.where(src > 6, src, 0)
report(x=x, y=y, bm=bm, ms=ms, mf=mf, nan=torch.isnan(mf2).sum().item(), w=w, w2=w2, w2d=w2.dtype,
       nz=torch.nonzero(mask), nzt=mask.nonzero(as_tuple=True), cnt=mask.sum(dim=1), anyall=[mask.any().item(), mask.all(1)])
