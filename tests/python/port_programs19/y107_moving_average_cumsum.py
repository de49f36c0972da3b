import torch
x = torch.tensor([1.0, 2.0, 6.0, 4.0, 5.0, 9.0, 7.0])
w = 3
c = torch.cat([torch.zeros(1), x.cumsum(0)])
ma = (c[w:] - c[:-w]) / w
ma2 = x.unfold(0, w, 1).mean(-1)
ma3 = torch.nn.functional.avg_pool1d(x.view(1, 1, -1), w, 1).flatten()
ema = torch.zeros_like(x)
ema[0] = x[0]
for t in range(1, len(x)):
    ema[t] = 0.5 * x[t] + 0.5 * ema[t - 1]
report(ma=ma, ma2=ma2, ma3=ma3, ema=ema, cmx=torch.cummax(x, 0).values, dd=(torch.cummax(x, 0).values - x).max())
