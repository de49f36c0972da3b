import torch
import torch.nn.functional as F

feats = F.normalize(data(6, 4, seed=1), dim=1)
labels = torch.tensor([0, 1, 0, 2, 1, 0])
T = 0.1
sim = torch.div(feats @ feats.T, T)
logits_max, _ = torch.max(sim, dim=1, keepdim=True)
logits = sim - logits_max.detach()
mask = torch.eq(labels.view(-1, 1), labels.view(1, -1)).float()
logits_mask = torch.scatter(torch.ones_like(mask), 1, torch.arange(6).view(-1, 1), 0)
mask = mask * logits_mask
exp_logits = torch.exp(logits) * logits_mask
log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))
pos = mask.sum(1)
mean_log_prob_pos = (mask * log_prob).sum(1) / torch.where(pos < 1e-6, torch.ones_like(pos), pos)
loss = -mean_log_prob_pos.mean()
report(loss=loss.item(), mask=mask, lm=logits_mask, mlpp=mean_log_prob_pos)
