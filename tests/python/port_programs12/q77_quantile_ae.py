import torch
import torch.nn as nn
ae = det(nn.Sequential(nn.Linear(6, 3), nn.Tanh(), nn.Linear(3, 6)), scale=0.4)
normal = data(40, 6, scale=0.5); anomal = data(5, 6, seed=8, scale=2.0) + 2
opt = torch.optim.Adam(ae.parameters(), lr=0.02)
for _ in range(10):
    opt.zero_grad(); l = ((ae(normal) - normal) ** 2).mean(); l.backward(); opt.step()
with torch.no_grad():
    err_n = ((ae(normal) - normal) ** 2).mean(1); err_a = ((ae(anomal) - anomal) ** 2).mean(1)
thr = torch.quantile(err_n, 0.95)
res = {"thr": thr, "flag": err_a > thr, "fp": (err_n > thr).sum()}
q = torch.tensor([[1.0, 7.0, 3.0, 5.0], [2.0, 8.0, 4.0, 6.0]])
for interp in ("linear", "lower", "higher", "nearest", "midpoint"):
    res[interp] = torch.quantile(q, torch.tensor([0.25, 0.5]), dim=1, keepdim=True, interpolation=interp)
res["nanq"] = torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5)
res["qscalar"] = q.quantile(0.3)
res["median_dim"] = q.median(dim=1)
res["zscore"] = (err_n - err_n.mean()) / err_n.std(unbiased=True)
res["iqr"] = torch.quantile(err_n, 0.75) - torch.quantile(err_n, 0.25)
report(**res)
