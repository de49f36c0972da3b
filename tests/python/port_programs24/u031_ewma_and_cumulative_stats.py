import torch

x = data(50).cumsum(0)
alpha = 0.3
ewma = torch.empty_like(x)
ewma[0] = x[0]
for i in range(1, len(x)):
    ewma[i] = alpha * x[i] + (1 - alpha) * ewma[i - 1]
weights = (1 - alpha) ** torch.arange(49, -1, -1, dtype=torch.float32)
n = torch.arange(1, 51, dtype=torch.float32)
cummean = x.cumsum(0) / n
cummax = torch.cummax(x, 0)
cummin = torch.cummin(x, 0)
drawdown = (cummax.values - x) / cummax.values.abs().clamp(min=1e-6)
roll_mean = x.unfold(0, 5, 1).mean(-1)
roll_std = x.unfold(0, 5, 1).std(-1)
logcum = torch.logcumsumexp(x / 10, 0)
prod = torch.cumprod(1 + x.diff() / 100, 0)
report(ewma_last=ewma[-5:], w_sum=weights.sum().item(), cummean=cummean[::10], cummax_idx=cummax.indices[::7], cummin=cummin.values[-3:],
       dd_max=drawdown.max().item(), roll_mean=roll_mean[:3], roll_std=roll_std[:3], logcum=logcum[-2:], prod=prod[-1].item())
