import numpy as np
import torch
import torch.nn.functional as F


def mixup(x, y, lam, perm):
    return lam * x + (1 - lam) * x[perm], y, y[perm]


def rand_bbox(size, lam, cx, cy):
    W, H = size[2], size[3]
    cut_rat = np.sqrt(1.0 - lam)
    cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
    bbx1 = np.clip(cx - cut_w // 2, 0, W)
    bby1 = np.clip(cy - cut_h // 2, 0, H)
    bbx2 = np.clip(cx + cut_w // 2, 0, W)
    bby2 = np.clip(cy + cut_h // 2, 0, H)
    return bbx1, bby1, bbx2, bby2


x = data(4, 3, 8, 8)
y = torch.tensor([0, 1, 2, 1])
perm = torch.tensor([2, 0, 3, 1])
lam = 0.7
mx, ya, yb = mixup(x, y, lam, perm)
logits = mx.mean(dim=(2, 3)) @ torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.0], [0.0, -1.0, 1.0]])
loss_mix = lam * F.cross_entropy(logits, ya) + (1 - lam) * F.cross_entropy(logits, yb)
bbx1, bby1, bbx2, bby2 = rand_bbox(x.size(), 0.6, 4, 3)
cm = x.clone()
cm[:, :, bbx1:bbx2, bby1:bby2] = x[perm, :, bbx1:bbx2, bby1:bby2]
lam_adj = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (x.size()[-1] * x.size()[-2]))
soft_targets = lam * F.one_hot(ya, 3).float() + (1 - lam) * F.one_hot(yb, 3).float()
soft_loss = torch.sum(-soft_targets * F.log_softmax(logits, dim=-1), dim=-1).mean()
ce_prob = F.cross_entropy(logits, soft_targets)
report(loss_mix=loss_mix, soft_loss=soft_loss, ce_prob=ce_prob, box=[int(bbx1), int(bby1), int(bbx2), int(bby2)],
       lam_adj=float(lam_adj), changed=int((cm != x).sum()), mx00=mx[0, 0, 0, :3])
