import torch

x = data(4, 5)
xi = ints(10, 4, 5)
out = {
    "var_c": x.var(dim=1, correction=0), "std_unb": x.std(0, unbiased=True), "var_mean": torch.var_mean(x, dim=1), "std_mean": torch.std_mean(x),
    "median": x.median(), "median_dim": x.median(dim=1), "nanmedian": torch.tensor([1.0, float("nan"), 3.0]).nanmedian(),
    "mode": xi.mode(dim=1), "quantile": torch.quantile(x, torch.tensor([0.25, 0.75]), dim=1), "nanmean": torch.tensor([1.0, float("nan"), 2.0]).nanmean(),
    "nansum": torch.tensor([1.0, float("nan")]).nansum(), "logsumexp": x.logsumexp(1), "aminmax": torch.aminmax(x, dim=0),
    "amax": x.amax(dim=(0, 1)), "argmin": x.argmin(), "argmax_keep": x.argmax(1, keepdim=True), "all": (x > -5).all(dim=1),
    "any": (x > 1.5).any(), "count_nonzero": torch.count_nonzero(x > 0, dim=0), "norm_fro": x.norm(), "norm_nuc": torch.linalg.matrix_norm(x, ord="nuc"),
    "cummax": x.cummax(dim=1), "cumprod": x[:, :3].cumprod(1), "logcumsumexp": x.logcumsumexp(0)[-1], "prod_int": xi.prod(1),
    "sum_int_dt": xi.sum(dtype=torch.float32), "mean_keep": x.mean((0, 1), keepdim=True), "min_pair": torch.min(x[0], x[1]),
    "max_dim": x.max(dim=0), "hist": torch.histc(x, bins=4, min=-2, max=2), "unique": torch.unique(xi, sorted=True, return_counts=True),
    "cov": torch.cov(x.T), "corr": torch.corrcoef(x[:2]),
}
report(**out)
