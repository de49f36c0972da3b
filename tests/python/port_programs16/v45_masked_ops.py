import torch

x = torch.arange(12.0).view(3, 4)
row_mask = torch.tensor([[True], [False], [True]])
col_mask = torch.tensor([True, False, False, True])
mf1 = x.masked_fill(row_mask, -1.0)
mf2 = x.masked_fill(col_mask, float("-inf")).softmax(-1)
ms = torch.masked_select(x, col_mask)
msc = torch.zeros(3, 4).masked_scatter(x > 6, torch.arange(100.0, 112.0))
w1 = torch.where(x > 5, x, 0.0)
w2 = torch.where(x.long() % 2 == 0, 1, -1)
w3 = torch.where(x > 100)
nz = torch.nonzero(x.fmod(5) == 0)
nzt = (x > 9).nonzero(as_tuple=True)
x2 = x.clone()
x2.masked_fill_(x2 > 8, 0)
cnt = torch.count_nonzero(x2, dim=0)
any_all = [bool((x > 10).any()), bool((x >= 0).all()), (x > 5).any(dim=1), (x > 5).all(dim=0)]
report(mf1=mf1, mf2=mf2, ms=ms, msc=msc, w1=w1, w2=w2, w2d=w2.dtype, w3=len(w3), w3s=w3[0].shape, nz=nz, nzt=list(nzt), x2=x2, cnt=cnt, aa=any_all)
