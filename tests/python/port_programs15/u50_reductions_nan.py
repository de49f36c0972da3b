import torch

x = torch.tensor([[1.0, float("nan"), 3.0], [4.0, 5.0, -2.0]])
r = {}
r["sum"] = x.sum(1)
r["nansum"] = x.nansum(1)
r["nanmean"] = x.nanmean(0)
r["max_nan"] = x.max()
r["amax"] = x.amax(1)
r["nanmedian"] = x.nanmedian(1).values
r["argmax_nan"] = x.argmax(1)
r["isnan_any"] = torch.isnan(x).any(dim=1)
r["nan_to_num"] = torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=9.0)
r["fmax"] = torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), 2.0]))
r["maximum"] = torch.maximum(torch.tensor([1.0, float("nan")]), torch.tensor([0.0, 2.0]))
r["sort_nan"] = torch.sort(torch.tensor([3.0, float("nan"), 1.0])).values
r["topk_nan"] = torch.topk(torch.tensor([3.0, float("nan"), 1.0]), 1).indices
r["cummax"] = torch.cummax(torch.tensor([1.0, 3.0, 2.0, 5.0]), 0).indices
r["cummin"] = torch.cummin(torch.tensor([4.0, 3.0, 5.0, 1.0]), 0).values
r["var_mean"] = torch.var_mean(torch.tensor([[1.0, 2.0], [3.0, 5.0]]), dim=0)
r["std_corr"] = torch.std(torch.tensor([1.0, 2.0, 4.0]), correction=0)
r["aminmax"] = list(torch.aminmax(torch.tensor([[3, 1], [7, -2]]), dim=1))
r["count_nonzero"] = torch.count_nonzero(torch.tensor([[0, 1, 2], [0, 0, 3]]), dim=1)
r["all_int"] = torch.tensor([1, 2, 0]).all()
r["mode"] = torch.mode(torch.tensor([1, 2, 2, 3, 3, 3, 1])).values
r["unique"] = torch.unique(torch.tensor([3, 1, 2, 3, 1]), return_counts=True, return_inverse=True)
r["unique_consec"] = torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]))
r["empty_sum"] = torch.zeros(0).sum()
r["empty_max_dim"] = torch.zeros(2, 0).sum(1)
r["logsumexp_inf"] = torch.logsumexp(torch.tensor([-float("inf"), -float("inf")]), 0)
r["prod_int"] = torch.tensor([2, 3, 4]).prod().dtype
r["mean_keep"] = torch.ones(2, 3, 4).mean(dim=(0, 2), keepdim=True).shape
r["norm_p"] = torch.norm(torch.tensor([3.0, 4.0]), p=3)
r["dist"] = torch.dist(torch.tensor([1.0, 2.0]), torch.tensor([4.0, 6.0]))
r["diff"] = torch.diff(torch.tensor([1, 4, 9, 16]), n=2)
r["cumsum_int8"] = torch.tensor([100, 100], dtype=torch.int8).cumsum(0).dtype
report(**r)
