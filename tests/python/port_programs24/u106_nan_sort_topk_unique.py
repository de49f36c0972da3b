import torch

x = torch.tensor([3.0, float("nan"), 1.0, float("nan"), -2.0, 1.0])
report(sort_desc=torch.sort(x, descending=True, stable=True).indices, argsort_stable=torch.argsort(x, stable=True),
       topk3=torch.topk(x, 3).indices, topk_small=torch.topk(x, 2, largest=False).indices, unique=torch.unique(x).numel(),
       max_dim=torch.max(x.view(2, 3), dim=1).indices, min_dim=torch.min(x.view(2, 3), dim=1).values, nanquant=torch.nanquantile(x, 0.5).item(),
       nanmean=x.nanmean().item(), msort=torch.msort(x), kth=torch.kthvalue(torch.tensor([1.0, float("nan"), 0.0]), 2).values.item(),
       cummin=torch.cummin(x, 0).indices, clamp_nan=torch.clamp(x, min=0.0), searchsorted=torch.searchsorted(torch.tensor([1.0, 2.0, float("nan")]), torch.tensor([1.5, float("nan")])))
