import torch

y = data(50, seed=3) * 2 + 1
yhat = y + 0.3 * data(50, seed=4)
mae = torch.mean(torch.abs(y - yhat))
rmse = torch.sqrt(torch.nn.functional.mse_loss(yhat, y))
r2 = 1 - ((y - yhat) ** 2).sum() / ((y - y.mean()) ** 2).sum()
mape = ((y - yhat).abs() / y.abs().clamp_min(1e-3)).mean()
qs = torch.tensor([0.1, 0.5, 0.9])
quant = torch.quantile(y, qs)
nanq = torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0, 2.0]), 0.5)
qlow = torch.quantile(y, 0.25, interpolation="lower")
qmid = torch.quantile(y.view(5, 10), 0.5, dim=1, keepdim=True, interpolation="midpoint")


def pinball(pred, target, q):
    diff = target - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


corr = torch.corrcoef(torch.stack([y, yhat]))[0, 1]
cov = torch.cov(torch.stack([y, yhat]), correction=0)
hist = torch.histc(y, bins=5, min=-3, max=5)
report(mae=mae, rmse=rmse, r2=r2, mape=mape, quant=quant, nanq=nanq, qlow=qlow, qmid=qmid.squeeze(), pin=pinball(yhat, y, 0.9),
       corr=corr, cov=cov, hist=hist, med=y.median(), nanmean=torch.tensor([1., float('nan'), 2.]).nanmean())
