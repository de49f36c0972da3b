import torch

n = 20
series = torch.arange(n, dtype=torch.float32) ** 1.1
folds = []
for k in range(3):
    train_end = 8 + 4 * k
    tr = torch.arange(0, train_end)
    te = torch.arange(train_end, min(train_end + 4, n))
    X = torch.stack([torch.ones(len(tr)), tr.float()], 1)
    coef = torch.linalg.lstsq(X, series[tr].unsqueeze(1)).solution.squeeze(1)
    pred = coef[0] + coef[1] * te.float()
    folds.append([coef.tolist(), (pred - series[te]).abs().mean().item()])
# seasonal naive and lag features with masks
season = 4
snaive = torch.full_like(series, float("nan"))
snaive[season:] = series[:-season]
mask = ~torch.isnan(snaive)
mae = (snaive[mask] - series[mask]).abs().mean()
lags = torch.stack([torch.roll(series, k) for k in range(1, 4)], 1)
lags[:3] = float("nan")
valid_rows = ~lags.isnan().any(1)
report(folds=folds, mae=mae.item(), valid=valid_rows.sum().item(), lag_row=lags[5], pow_dtype=series.dtype)
