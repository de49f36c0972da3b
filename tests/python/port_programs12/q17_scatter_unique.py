import torch
src = torch.tensor([1.0, 5.0, 2.0, 8.0, 3.0, 4.0]); index = torch.tensor([0, 1, 0, 1, 2, 1])
res = {}
for r in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in (True, False):
        res[f"{r}_{inc}"] = torch.zeros(4).scatter_reduce(0, index, src, reduce=r, include_self=inc)
res["m2d"] = torch.full((2, 3), 1.0).scatter_reduce(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), torch.tensor([[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]]), "amax")
res["int_sum"] = torch.zeros(3, dtype=torch.long).scatter_reduce_(0, torch.tensor([0, 2, 2]), torch.tensor([4, 5, 6]), "sum")
x = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
o, inv, cnt = torch.unique_consecutive(x, return_inverse=True, return_counts=True)
res["uc"] = [o, inv, cnt]
res["uc2"] = torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), dim=0)
u, i2, c2 = torch.unique(x, sorted=True, return_inverse=True, return_counts=True)
res["u"] = [u, i2, c2]
bounds = torch.tensor([1.0, 3.0, 5.0, 7.0])
v = torch.tensor([[0.5, 3.0, 6.0], [7.0, 8.0, 1.0]])
res["bk"] = [torch.bucketize(v, bounds), torch.bucketize(v, bounds, right=True), torch.bucketize(v, bounds, out_int32=True).dtype]
res["ss"] = [torch.searchsorted(bounds, v), torch.searchsorted(bounds, v, side="right"), torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3], [5]]))]
t = torch.zeros(5, 2)
t.index_add_(0, torch.tensor([0, 4, 0]), torch.ones(3, 2) * torch.tensor([[1.0], [2.0], [3.0]]), alpha=0.5)
res["ia"] = t
res["sa"] = torch.zeros(3, 4).scatter_add(1, torch.tensor([[0, 1, 0], [3, 3, 3], [2, 1, 0]]), torch.arange(9.0).view(3, 3))
res["sc"] = torch.zeros(2, 4).scatter(1, torch.tensor([[1], [3]]), 7.0)
res["sc_red"] = torch.ones(2, 4).scatter(1, torch.tensor([[1, 1], [3, 0]]), torch.tensor([[2.0, 3.0], [4.0, 5.0]]), reduce="multiply")
res["hist"] = [torch.histc(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=4, min=0, max=4), torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1.0, 1.0, 2.0]), minlength=5)]
vals, idx = torch.tensor([3, 1, 3, 2, 1, 3]).mode()
res["mode"] = [vals, idx >= 0]
res["kth"] = torch.kthvalue(torch.tensor([[3.0, 1.0, 2.0], [9.0, 7.0, 8.0]]), 2, dim=1)
res["median"] = [torch.tensor([4.0, 1.0, 3.0, 2.0]).median(), torch.tensor([4.0, 1.0, 3.0, 2.0]).nanmedian(), torch.tensor([[1.0, 5.0], [3.0, 2.0]]).median(dim=0)]
res["quant"] = torch.quantile(torch.tensor([1.0, 2.0, 3.0, 4.0, 10.0]), torch.tensor([0.1, 0.5, 0.9]))
report(**res)
