import torch

x = torch.tensor([3, 1, 2, 3, 1, 2, 3, 0])
f = torch.tensor([0.5, 0.1, 0.5, 0.2, 0.1, 0.5])
report(s=x.sort(stable=True), sd=x.sort(descending=True, stable=True), a=torch.argsort(f, stable=True), ad=torch.argsort(f, descending=True, stable=True),
       am=x.argmax(), ami=x.argmin(), mx=x.max(0), fmax=f.max(0), uq=torch.unique(x, return_counts=True), msort=torch.msort(f),
       kv=torch.kthvalue(f, 3), med=f.median(), tk=torch.topk(torch.tensor([1.0, 3.0, 3.0, 2.0]), 2, sorted=True).values,
       srt2=torch.sort(torch.tensor([[2, 1], [1, 2]]), dim=0).indices, cm=torch.cummin(torch.tensor([3, 1, 1, 2, 0]), 0))
