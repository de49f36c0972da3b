import torch
src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
idx = torch.tensor([0, 1, 0, 1, 2, 1])
base = torch.tensor([10.0, 20.0, 30.0, 40.0])
out = {}
for r in ("sum", "prod", "mean", "amax", "amin"):
    out[r] = base.scatter_reduce(0, idx, src, reduce=r)
    out[r + "_noself"] = base.scatter_reduce(0, idx, src, reduce=r, include_self=False)
out["scatter_add"] = base.scatter_add(0, idx, src)
out["scatter_mul"] = base.clone().scatter_(0, idx, src, reduce="multiply")
out["scatter_addr"] = base.clone().scatter_(0, idx, src, reduce="add")
report(**out)
