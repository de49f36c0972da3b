import torch
import torch.nn.functional as F

feats = F.normalize(data(8, 4), dim=1)
labels = torch.tensor([0, 1, 0, 2, 1, 0, 2, 3])
T = 0.5
logits = feats @ feats.T / T
self_mask = torch.eye(8, dtype=torch.bool)
logits = logits.masked_fill(self_mask, -1e9)
pos = (labels[:, None] == labels[None, :]) & ~self_mask
log_prob = logits - torch.logsumexp(logits, dim=1, keepdim=True)
n_pos = pos.sum(1)
mean_log_pos = (log_prob * pos).sum(1) / n_pos.clamp(min=1)
loss = -(mean_log_pos[n_pos > 0]).mean()
# NT-Xent on two views
z = F.normalize(torch.cat([feats, feats.roll(1, 1)]), dim=1)
s = z @ z.T / T
s.fill_diagonal_(float("-inf"))
targets = torch.cat([torch.arange(8, 16), torch.arange(0, 8)])
ntx = F.cross_entropy(s, targets)
report(n_pos=n_pos, loss=loss.item(), ntx=ntx.item(), lp_row=log_prob[7], lse_inf=torch.logsumexp(torch.tensor([float("-inf")] * 2), 0))
