import numpy as np
import torch
import torch.nn.functional as F

imgs = data(4, 3, 8, 8)
labels = torch.tensor([0, 1, 2, 1])
rs = np.random.RandomState(3)
lam = rs.beta(1.0, 1.0)
perm = torch.tensor([2, 3, 0, 1])
H, W = 8, 8
cut = np.sqrt(1.0 - lam)
cw, ch = int(W * cut), int(H * cut)
cx, cy = rs.randint(W), rs.randint(H)
x1, x2 = np.clip(cx - cw // 2, 0, W), np.clip(cx + cw // 2, 0, W)
y1, y2 = np.clip(cy - ch // 2, 0, H), np.clip(cy + ch // 2, 0, H)
mixed = imgs.clone()
mixed[:, :, y1:y2, x1:x2] = imgs[perm, :, y1:y2, x1:x2]
lam_adj = 1 - ((x2 - x1) * (y2 - y1) / (W * H))
logits = mixed.mean((2, 3)) @ torch.ones(3, 3) * torch.arange(3.0)
loss = lam_adj * F.cross_entropy(logits, labels) + (1 - lam_adj) * F.cross_entropy(logits, labels[perm])
target = lam_adj * F.one_hot(labels, 3) + (1 - lam_adj) * F.one_hot(labels[perm], 3)
changed = (mixed != imgs).any(1).sum((1, 2))
report(box=[int(x1), int(y1), int(x2), int(y2)], lam_adj=float(lam_adj), loss=loss.item(), target=target, target_dtype=target.dtype, changed=changed)
