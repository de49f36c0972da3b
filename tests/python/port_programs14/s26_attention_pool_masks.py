import torch
import torch.nn as nn
import torch.nn.functional as F

h = data(3, 6, 5)
lengths = torch.tensor([6, 3, 1])
mask = torch.arange(6).unsqueeze(0) < lengths.unsqueeze(1)
score_layer = det(nn.Linear(5, 1))
scores = score_layer(h).squeeze(-1)
scores = scores.masked_fill(~mask, float("-inf"))
alpha = F.softmax(scores, dim=1)
pooled = torch.bmm(alpha.unsqueeze(1), h).squeeze(1)
mean_pooled = (h * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
max_pooled = h.masked_fill(~mask.unsqueeze(-1), -1e9).max(dim=1).values
last = h[torch.arange(3), lengths - 1]
report(alpha=alpha, pooled=pooled, mean=mean_pooled, max=max_pooled, last=last, mdt=mask.dtype, msum=mask.sum(), msumdt=mask.sum().dtype)
