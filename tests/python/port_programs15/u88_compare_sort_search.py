import torch

x = torch.tensor([[3, 1, 2, 1], [0, 5, 5, 4]])
r = {}
r["sort_stable"] = torch.sort(x, dim=1, stable=True).indices
r["sort_desc"] = torch.sort(x, descending=True, stable=True).indices
r["argsort"] = x.argsort(dim=0)
r["topk_small"] = torch.topk(x.float(), 2, largest=False).values
r["topk_unsorted_vals"] = sorted(torch.topk(torch.tensor([5., 1, 9, 3]), 2, sorted=True).values.tolist())
r["kth"] = torch.kthvalue(torch.tensor([4., 2, 8, 6]), 2)
r["msort"] = torch.msort(torch.tensor([[3, 1], [1, 2]]))
r["eq"] = torch.eq(x, 1)
r["allclose"] = torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
r["isclose"] = torch.isclose(torch.tensor([1.0, float("nan")]), torch.tensor([1.001, float("nan")]), rtol=1e-2, equal_nan=True)
r["equal"] = torch.equal(x, x.clone())
r["ne_count"] = (x != 1).sum()
r["clamp_tensor"] = torch.clamp(torch.tensor([1.0, 5.0, -3.0]), min=torch.tensor([0.0, 0.0, -1.0]), max=torch.tensor([2.0, 4.0, 2.0]))
r["where_scalar"] = torch.where(x > 2, x, 0)
r["where_float_int"] = torch.where(torch.tensor([True, False]), torch.tensor([1.5, 2.5]), 0).dtype
r["max_pair"] = torch.max(x, 1)
r["min_kd"] = torch.min(x, dim=0, keepdim=True).values
r["argmax_ties"] = torch.tensor([1, 3, 3, 2]).argmax()
r["isin"] = torch.isin(x, torch.tensor([1, 5]))
r["logical"] = [torch.logical_and(x > 0, x < 4).sum().item(), torch.logical_xor(x > 2, x > 4).sum().item()]
r["any_dim"] = (x == 5).any(1)
r["sign"] = torch.sign(torch.tensor([-2.0, 0.0, 3.0]))
r["sgn_int"] = torch.sgn(torch.tensor([-2, 0, 3]))
r["lexsort_like"] = x[:, 0].mul(10).add(x[:, 1]).argsort()
r["bool_minmax"] = [torch.tensor([True, False]).max().item(), torch.tensor([True, False]).min().item()]
r["cmp_broadcast"] = (torch.arange(3).view(3, 1) > torch.arange(3)).sum()
report(**r)
