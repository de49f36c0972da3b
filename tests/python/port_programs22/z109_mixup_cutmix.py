import numpy as np
import torch
import torch.nn.functional as F

def rand_bbox(size, lam, cx, cy):
    W, H = size[2], size[3]
    cut_rat = np.sqrt(1.0 - lam)
    cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
    bbx1 = np.clip(cx - cut_w // 2, 0, W)
    bby1 = np.clip(cy - cut_h // 2, 0, H)
    bbx2 = np.clip(cx + cut_w // 2, 0, W)
    bby2 = np.clip(cy + cut_h // 2, 0, H)
    return bbx1, bby1, bbx2, bby2

x = data(4, 3, 8, 8, seed=157)
y = torch.tensor([0, 2, 1, 3])
index = torch.tensor([2, 0, 3, 1])
lam = 0.63
mixed = lam * x + (1 - lam) * x[index, :]
y_soft = lam * F.one_hot(y, 4).float() + (1 - lam) * F.one_hot(y[index], 4).float()
bbx1, bby1, bbx2, bby2 = rand_bbox(x.size(), lam, 3, 5)
cut = x.clone()
cut[:, :, bbx1:bbx2, bby1:bby2] = x[index, :, bbx1:bbx2, bby1:bby2]
lam_adj = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (x.size()[-1] * x.size()[-2]))
logits = data(4, 4, seed=158).requires_grad_()
loss = lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[index])
soft_loss = torch.sum(-y_soft * F.log_softmax(logits, dim=-1), dim=-1).mean()
loss.backward()
report(mixed=mixed[1, 0, 0], y_soft=y_soft, box=[int(v) for v in (bbx1, bby1, bbx2, bby2)], lam_adj=float(lam_adj), cut=cut[0, 1, 2],
       loss=loss, soft_loss=soft_loss, g=logits.grad, ce_soft=F.cross_entropy(logits, y_soft))
