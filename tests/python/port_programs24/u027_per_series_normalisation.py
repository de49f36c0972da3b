import torch

series = data(4, 30) * torch.tensor([[1.0], [10.0], [0.1], [5.0]]) + torch.tensor([[0.0], [100.0], [-3.0], [20.0]])
mean = series.mean(dim=1, keepdim=True)
std = series.std(dim=1, keepdim=True)
z = (series - mean) / std
# RevIN style: normalise the context, denormalise the forecast
ctx, fut = series[:, :24], series[:, 24:]
mu, sigma = ctx.mean(1, keepdim=True), torch.sqrt(ctx.var(1, keepdim=True, unbiased=False) + 1e-5)
naive = ((ctx[:, -1:] - mu) / sigma).expand(-1, 6)
forecast = naive * sigma + mu
mase_scale = (ctx[:, 1:] - ctx[:, :-1]).abs().mean(1)
mase = (forecast - fut).abs().mean(1) / mase_scale
# robust scaling by median / IQR
med = series.median(dim=1, keepdim=True).values
q = torch.quantile(series, torch.tensor([0.25, 0.75]), dim=1, keepdim=True)
robust = (series - med) / (q[1] - q[0])
# differencing and its inverse
d1 = torch.diff(series, dim=1)
rec = torch.cat([series[:, :1], series[:, :1] + d1.cumsum(1)], 1)
report(z_mean=z.mean(1), z_std=z.std(1), sigma=sigma.squeeze(1), mase=mase, med=med.squeeze(), q_shape=q.shape,
       robust=robust[:, :3], rec_ok=torch.allclose(rec, series, atol=1e-3), var_m=torch.var_mean(series, dim=1)[1])
