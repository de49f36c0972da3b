import torch
import torch.nn.functional as F

cls_logits = data(2, 8, 3, scale=1.5)
box_pred = data(2, 8, 4, seed=3)
labels = torch.tensor([[0, 1, 0, 2, 0, 0, 0, 0], [0, 0, 2, 0, 0, 1, 1, 0]])
box_tgt = data(2, 8, 4, seed=4)
pos = labels > 0
n_pos = pos.sum()
reg = F.smooth_l1_loss(box_pred[pos], box_tgt[pos], beta=1 / 9, reduction="sum") / n_pos
ce = F.cross_entropy(cls_logits.view(-1, 3), labels.view(-1), reduction="none").view(2, 8)
ce_neg = ce.masked_fill(pos, -1.0)
k = (3 * pos.sum(1)).clamp(max=8)
order = ce_neg.argsort(1, descending=True)
rank = order.argsort(1)
hard = (rank < k[:, None]) & ~pos
cls = (ce[pos].sum() + ce[hard].sum()) / n_pos
report(n_pos=n_pos.item(), reg=reg.item(), hard=hard, cls=cls.item(), total=(cls + reg).item(), k=k)
