import torch

a = torch.tensor([1.0, 2.0, 3.0001, float("nan")])
b = torch.tensor([1.0, 2.1, 3.0, float("nan")])
sorted_seq = torch.tensor([1, 3, 5, 7, 9])
vals = torch.tensor([[0, 3, 6], [9, 10, 2]])
out = {
    "isclose": torch.isclose(a, b, rtol=1e-3, atol=0.0), "isclose_nan": torch.isclose(a, b, equal_nan=True), "allclose": torch.allclose(a[:3], b[:3], atol=0.2),
    "equal": torch.equal(a[:2], torch.tensor([1.0, 2.0])), "eq": a == b, "ne": a != b, "searchsorted": torch.searchsorted(sorted_seq, vals),
    "searchsorted_r": torch.searchsorted(sorted_seq, vals, right=True), "bucketize": torch.bucketize(torch.tensor([0.5, 3.0, 8.0]), torch.tensor([1.0, 3.0, 5.0])),
    "uniq_cons": torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1, 3]), return_counts=True), "argsort": torch.argsort(torch.tensor([3, 1, 2, 1]), stable=True),
    "isin": torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])), "isnan": torch.isnan(a), "isinf": torch.isinf(torch.tensor([1.0, float("-inf")])),
    "isfinite": torch.isfinite(a), "max_nan": torch.max(a), "maximum_nan": torch.maximum(a, b), "fmax": torch.fmax(a, b), "gt_scalar": (a > 2).sum(),
    "sort_nan": torch.sort(a).values, "topk_ties": torch.topk(torch.tensor([1, 3, 3, 2]), 2).values, "argmax_ties": torch.tensor([1, 3, 3]).argmax(),
    "clamp_nan": torch.clamp(a, 0, 2), "unique_dim": torch.unique(torch.tensor([[1, 2], [1, 2], [0, 1]]), dim=0), "lt_bool": torch.tensor([True, False]) < torch.tensor([True, True]),
}
report(**out)
