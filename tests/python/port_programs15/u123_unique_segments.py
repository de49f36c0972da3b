import torch

rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 0], [3, 4]])
r = {}
u, inv, cnt = torch.unique(rows, dim=0, return_inverse=True, return_counts=True)
r["u"] = u
r["inv"] = inv
r["cnt"] = cnt
vals = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
seg = torch.tensor([0, 0, 1, 1, 1])
r["seg_sum"] = torch.zeros(2).scatter_reduce(0, seg, vals, "sum")
r["seg_prod"] = torch.ones(2).scatter_reduce(0, seg, vals, "prod", include_self=True)
r["seg_min"] = torch.full((2,), 100.0).scatter_reduce(0, seg, vals, "amin", include_self=False)
r["seg_mean_self"] = torch.full((2,), 10.0).scatter_reduce(0, seg, vals, "mean", include_self=True)
r["seg_max_2d"] = torch.zeros(2, 2).scatter_reduce(0, seg[:4].view(2, 2), vals[:4].view(2, 2), "amax", include_self=False)
r["index_reduce"] = torch.zeros(3).index_reduce(0, torch.tensor([0, 2, 0]), torch.tensor([4.0, 5.0, 6.0]), "amax",
                                                include_self=False)
r["cumsum_rev"] = vals.flip(0).cumsum(0).flip(0)
r["counts"] = torch.bincount(seg, minlength=4)
order = torch.argsort(torch.tensor([3, 1, 2, 1]), stable=True)
r["stable"] = order
_, first = torch.unique(torch.tensor([5, 3, 5, 1]), sorted=True, return_inverse=True)
r["first_inv"] = first
r["uniq_float"] = torch.unique(torch.tensor([1.5, -0.0, 0.0, 1.5]))
r["topk3d"] = torch.topk(torch.arange(24.).view(2, 3, 4) % 5, 2, dim=1, largest=False).values
report(**r)
