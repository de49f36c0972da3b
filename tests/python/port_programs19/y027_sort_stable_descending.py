import torch
x = torch.tensor([3, 1, 2, 3, 1, 2, 3])
s = torch.sort(x, stable=True)
d = x.sort(descending=True, stable=True)
f = torch.tensor([2.0, float("nan"), -1.0, float("nan"), 0.0])
fs = f.sort()
report(sv=s.values, si=s.indices, dv=d.values, di=d.indices, fv=fs.values, fi=fs.indices, fd=f.sort(descending=True).indices,
       asr=torch.argsort(x, stable=True), m=torch.msort(torch.tensor([[3, 1], [1, 2]])))
