import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(0)
x = data(4, 3, 8, 8, seed=1)
y = torch.tensor([0, 1, 2, 3])
lam = 0.7
perm = torch.tensor([2, 0, 3, 1])
mixed = lam * x + (1 - lam) * x[perm]
y1 = F.one_hot(y, 4).float()
ymix = lam * y1 + (1 - lam) * y1[perm]
cut_w = int(8 * (1 - lam) ** 0.5)
cx, cy = 4, 3
bx1, by1 = max(cx - cut_w // 2, 0), max(cy - cut_w // 2, 0)
bx2, by2 = min(cx + cut_w // 2, 8), min(cy + cut_w // 2, 8)
cm = x.clone()
cm[:, :, by1:by2, bx1:bx2] = x[perm, :, by1:by2, bx1:bx2]
lam2 = 1 - ((bx2 - bx1) * (by2 - by1) / 64)
logits = data(4, 4, seed=3)
loss = lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[perm])
soft = F.cross_entropy(logits, ymix)
report(mixed=mixed[0, 0, 0], ymix=ymix, cm=cm[1, 0, 2], lam2=lam2, loss=loss, soft=soft)
