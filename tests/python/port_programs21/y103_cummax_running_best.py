import torch

val_loss = torch.tensor([1.0, 0.8, 0.9, 0.7, 0.75, 0.7, 0.6])
best, at = torch.cummin(val_loss, dim=0)
improved = torch.cat([torch.tensor([True]), best[1:] < best[:-1]])
patience = 0
stopped = None
for i, l in enumerate(val_loss.tolist()):
    if i > 0 and l >= best[i - 1].item():
        patience += 1
        if patience >= 2:
            stopped = i
            break
    else:
        patience = 0
peaks = torch.cummax(torch.tensor([[1, 3, 2, 5, 4], [0, 0, 1, 0, 2]]), dim=1)
dd = val_loss.cumsum(0) / torch.arange(1, 8)
report(best=best, at=at, improved=improved, stopped=stopped, pv=peaks.values, pi=peaks.indices, dd=dd,
       cprod=torch.cumprod(torch.tensor([1.0, 0.9, 0.9, 0.5]), 0))
