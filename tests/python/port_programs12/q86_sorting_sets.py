import torch
x = torch.tensor([3, 1, 2, 3, 1, 5, 2, 2])
res = {}
v, i = torch.sort(x, stable=True); res["stable"] = [v, i]
v, i = torch.sort(x, descending=True, stable=True); res["stable_desc"] = [v, i]
res["argsort"] = torch.argsort(x, stable=True, descending=True)
tv, ti = torch.topk(x.float(), 3, sorted=True); res["topk"] = [tv, ti.sort().values]
m = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
u, inv, cnt = torch.unique(m, dim=0, return_inverse=True, return_counts=True); res["u2d"] = [u, inv, cnt]
res["u_unsorted_count"] = torch.unique(x, return_counts=True)[1]
res["isin"] = [torch.isin(x, torch.tensor([2, 5])), torch.isin(x, torch.tensor([2, 5]), invert=True), torch.isin(torch.tensor([1.5, 2.0]), torch.tensor([2.0]))]
srt = torch.tensor([7, 1, 5, 3]); sorter = torch.argsort(srt)
res["ss_sorter"] = torch.searchsorted(srt, torch.tensor([4, 6]), sorter=sorter)
res["msort"] = torch.msort(torch.tensor([[3.0, 1.0], [1.0, 2.0]]))
res["sort_nan"] = torch.sort(torch.tensor([2.0, float("nan"), 1.0])).values
res["argmax_ties"] = [torch.tensor([1, 3, 3, 2]).argmax(), torch.tensor([1.0, 0.0, 0.0]).argmin(), torch.tensor([[1, 5], [5, 1]]).max(dim=1).indices]
res["count"] = [torch.bincount(x), x.unique().numel(), torch.histc(x.float(), bins=5, min=1, max=5)]
res["sort2d"] = torch.sort(torch.tensor([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]]), dim=0)
res["cummax"] = torch.cummax(x, 0)
report(**res)
