import torch

x = torch.tensor([3, 1, 2, 3, 1, 5, 5, 5, 0])
u, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
us = torch.unique(x, sorted=True)
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9], [3, 4]])
ur, rinv, rcnt = rows.unique(dim=0, return_inverse=True, return_counts=True)
uc, uc_inv, uc_cnt = torch.unique_consecutive(x, return_inverse=True, return_counts=True)
ucol = torch.unique(torch.tensor([[1, 1, 2], [3, 3, 4]]), dim=1)
fl = torch.tensor([1.5, float("nan"), 1.5, -0.0, 0.0]).unique()
first = torch.full((len(u),), len(x)).scatter_reduce(0, inv, torch.arange(len(x)), reduce="amin")
report(u=u, inv=inv, cnt=cnt, us=us, ur=ur, rinv=rinv, rcnt=rcnt, uc=uc, uc_inv=uc_inv, uc_cnt=uc_cnt, ucol=ucol,
       fl_len=len(fl), first=first)
