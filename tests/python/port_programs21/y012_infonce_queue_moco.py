import torch
import torch.nn.functional as F

q = F.normalize(data(4, 8, seed=1), dim=1)
k = F.normalize(data(4, 8, seed=2), dim=1)
queue = F.normalize(data(8, 16, seed=3), dim=0)
l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
l_neg = torch.einsum("nc,ck->nk", [q, queue])
logits = torch.cat([l_pos, l_neg], dim=1) / 0.07
labels = torch.zeros(logits.shape[0], dtype=torch.long)
loss = F.cross_entropy(logits, labels)
ptr = 0
queue[:, ptr:ptr + 4] = k.T
ema_k = data(8, seed=4)
ema_q = data(8, seed=5)
ema_k.mul_(0.99).add_(ema_q, alpha=0.01)
report(loss=loss.item(), lpos=l_pos.squeeze(), top=logits.argmax(1), qsum=queue.sum(0), ema=ema_k)
