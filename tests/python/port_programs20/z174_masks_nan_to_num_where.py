import torch
import torch.nn as nn

pred = data(2, 5, requires_grad=False).requires_grad_(True) if False else data(2, 5).requires_grad_(True)
target = torch.tensor([[1.0, float("nan"), 0.5, 2.0, float("nan")], [0.0, 1.0, float("nan"), 1.0, 1.0]])
mask = ~torch.isnan(target)
diff = torch.where(mask, pred - torch.nan_to_num(target), torch.zeros_like(pred))
loss = (diff ** 2).sum() / mask.sum()
loss.backward()
g = pred.grad.clone()
g2 = torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), nan=0.0, posinf=1e3, neginf=-1e3)
masked_mean = (pred * mask).sum(1) / mask.sum(1).clamp(min=1)
report(loss=loss, g=g, g2=g2, mm=masked_mean, cnt=mask.sum(1))
