import torch

v = torch.tensor([3, 1, 2, 1, 3, 2, 1])
s = torch.sort(v, stable=True)
sd = torch.sort(v, descending=True, stable=True)
keys = torch.tensor([2, 1, 2, 1, 0])
vals = torch.tensor([10, 20, 30, 40, 50])
# lexicographic sort by (key, val desc) via two stable sorts
o1 = torch.argsort(vals, descending=True, stable=True)
o2 = torch.argsort(keys[o1], stable=True)
lex = o1[o2]
m = torch.tensor([[3.0, 1.0, 2.0], [1.0, 1.0, 0.0]])
ms = m.sort(dim=1, stable=True)
msort = torch.msort(m.T)
uc = torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1, 3]), return_counts=True, return_inverse=True)
u = torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_inverse=True, return_counts=True)
ss = torch.searchsorted(torch.tensor([1, 2, 2, 2, 5]), torch.tensor([2, 3, 0, 6]))
ss_r = torch.searchsorted(torch.tensor([1, 2, 2, 2, 5]), torch.tensor([2, 3, 0, 6]), right=True)
kth = torch.kthvalue(torch.tensor([5.0, 1.0, 3.0, 1.0]), 2)
mode = torch.mode(torch.tensor([2, 3, 3, 2, 1]))
report(s=s.indices, sd=sd.indices, lex=lex, ms=ms.indices, msort=msort, uc=list(uc), u=list(u), ss=ss, ss_r=ss_r, kth=[kth.values, kth.indices],
       mode=[mode.values, mode.indices], rank=v.argsort(stable=True).argsort(stable=True), topk_ties=torch.tensor([1.0, 3.0, 3.0, 2.0]).topk(2).indices)
