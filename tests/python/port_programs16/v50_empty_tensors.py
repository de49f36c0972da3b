import torch

e = torch.empty(0)
e2 = torch.zeros(0, 3)
res = {
    "sum": e.sum(), "prod": e.prod(), "mean": e.mean(), "sum_dim": e2.sum(0), "sum_dim1": e2.sum(1), "max_dim0": e2.amax(1),
    "cat": torch.cat([torch.ones(2, 3), e2]), "cat1d": torch.cat([e, torch.ones(2)]), "stack": torch.stack([e2, e2]).shape,
    "mm": torch.zeros(2, 0) @ torch.zeros(0, 3), "numel": e2.numel(), "any": e.any(), "all": e.all(),
    "std": torch.zeros(1).std(), "norm": e.norm(), "logsumexp": torch.logsumexp(e2, 1), "cumsum": e.cumsum(0),
    "sort": torch.sort(e).values, "unique": torch.unique(e), "nonzero": torch.nonzero(e2).shape, "where": torch.where(e > 0, e, 1.0),
    "softmax": torch.softmax(e2, 1).shape, "var_mean": torch.var_mean(e2, 0)[0].shape, "min_empty_dim": e2.min(1).values,
}
errs = []
for fn in (lambda: e.max(), lambda: e.argmax(), lambda: e2.max(0), lambda: torch.ones(2)[torch.empty(0, dtype=torch.long)].sum()):
    try:
        r = fn()
        errs.append(str(r))
    except (RuntimeError, IndexError) as ex:
        errs.append("IndexError" if isinstance(ex, IndexError) else "RuntimeError")
report(res=res, errs=errs)
