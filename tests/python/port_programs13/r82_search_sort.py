import torch
x = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
edges = torch.tensor([0.0, 2.0, 4.0, 8.0])
res = {
    "ss": torch.searchsorted(edges, x), "ss_r": torch.searchsorted(edges, x, right=True), "bk": torch.bucketize(x, edges),
    "bk_r": torch.bucketize(x, edges, right=True), "kth": torch.kthvalue(x, 3), "topk_small": torch.topk(x, 3, largest=False),
    "argsort_desc": torch.argsort(x, descending=True, stable=True), "sort_stable": torch.sort(x, stable=True).indices,
    "uc": torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True, return_inverse=True),
    "uniq": torch.unique(x, sorted=True, return_inverse=True, return_counts=True), "msort": torch.msort(x.view(4, 2)),
    "median": torch.median(x), "median_dim": torch.median(x.view(2, 4), dim=1), "nanmedian": torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0])),
    "mode": torch.mode(torch.tensor([1, 2, 2, 3, 3])), "quant": torch.quantile(x, torch.tensor([0.25, 0.5, 0.9])),
    "ss2d": torch.searchsorted(torch.tensor([[0.0, 1.0, 2.0], [0.0, 10.0, 20.0]]), torch.tensor([[1.5], [15.0]])),
    "isin": torch.isin(x, torch.tensor([1.0, 9.0])), "count": torch.count_nonzero(x > 3), "amax_idx": x.argmax(), "max_first": torch.tensor([1, 3, 3]).argmax(),
}
out = {}
for k, v in res.items():
    if isinstance(v, tuple):
        out[k] = [t for t in v]
    else:
        out[k] = v
report(**out)
