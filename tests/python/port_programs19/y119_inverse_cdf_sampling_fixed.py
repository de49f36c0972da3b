import torch
p = torch.tensor([0.1, 0.2, 0.3, 0.4])
cdf = p.cumsum(0)
u = torch.linspace(0.05, 0.95, 10)
idx = torch.searchsorted(cdf, u)
idx2 = torch.bucketize(u, cdf, right=False)
report(cdf=cdf, idx=idx, idx2=idx2, counts=torch.bincount(idx, minlength=4), gumbel=(torch.log(p) - torch.log(-torch.log(torch.tensor([0.5, 0.9, 0.1, 0.3])))).argmax())
