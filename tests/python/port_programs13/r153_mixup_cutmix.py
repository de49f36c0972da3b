import numpy as np
import torch
import torch.nn.functional as F
x = data(4, 3, 8, 8); y = torch.tensor([0, 1, 2, 1])
lam = 0.7
perm = torch.tensor([2, 0, 3, 1])
mixed = lam * x + (1 - lam) * x[perm]
y_a, y_b = y, y[perm]
logits = data(4, 3, seed=5)
loss = lam * F.cross_entropy(logits, y_a) + (1 - lam) * F.cross_entropy(logits, y_b)
soft = lam * F.one_hot(y, 3).float() + (1 - lam) * F.one_hot(y[perm], 3).float()
loss2 = torch.sum(-soft * F.log_softmax(logits, -1), -1).mean()
W = H = 8
cut = np.sqrt(1.0 - lam)
cw, ch = int(W * cut), int(H * cut)
cx, cy = 4, 3
bbx1, bby1 = np.clip(cx - cw // 2, 0, W), np.clip(cy - ch // 2, 0, H)
bbx2, bby2 = np.clip(cx + cw // 2, 0, W), np.clip(cy + ch // 2, 0, H)
xc = x.clone()
xc[:, :, bbx1:bbx2, bby1:bby2] = x[perm, :, bbx1:bbx2, bby1:bby2]
lam_adj = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (W * H))
report(loss=loss, same=torch.allclose(loss, loss2, atol=1e-6), xc=xc[1, 0, 2, :5], lam=float(lam_adj), mixed=mixed[0, 0, 0, :3])
