import torch

h = data(2, 4, 3, seed=1)
mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 0]])
m = mask.unsqueeze(-1).float()
mean = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
mx = h.masked_fill(m == 0, -1e9).max(1).values
last_idx = mask.sum(1) - 1
last = h[torch.arange(2), last_idx]
first = h[:, 0]
report(mean=mean, mx=mx, last=last, first=first, cls=torch.cat([mean, mx], -1).shape)
