import torch
x = data(3, 5, seed=15)
m = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]], dtype=torch.bool)
mean = (x * m).sum(1) / m.sum(1)
mx = x.masked_fill(~m, float("-inf")).max(1).values
mn = torch.where(m, x, torch.tensor(float("inf"))).amin(1)
sm = torch.softmax(x.masked_fill(~m, float("-inf")), 1)
report(mean=mean, mx=mx, mn=mn, sm=sm, msum=m.sum(1), mdt=m.sum(1).dtype, nm=torch.where(m, x, torch.nan).nanmean(1))
