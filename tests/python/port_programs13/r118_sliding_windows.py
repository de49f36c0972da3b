import torch
series = torch.sin(torch.arange(30.0) / 3) + 0.1 * data(30)
win = series.unfold(0, 6, 2)
feats = torch.stack([win.mean(1), win.std(1), win.max(1).values, win[:, -1] - win[:, 0]], 1)
X2 = torch.arange(24.0).view(2, 12).unfold(1, 4, 4)
img = torch.arange(36.0).view(6, 6)
tiles = img.unfold(0, 3, 3).unfold(1, 3, 3)
lag = torch.stack([series[i:i + 24] for i in range(6)], 1)
ema = torch.zeros_like(series)
ema[0] = series[0]
for t in range(1, 30):
    ema[t] = 0.3 * series[t] + 0.7 * ema[t - 1]
report(shape=list(win.shape), feats=feats[:3], X2=X2[1, 2], tiles=list(tiles.shape), tile=tiles[1, 0], lag=lag[5], ema=ema[-3:], ret=series.diff()[:3])
