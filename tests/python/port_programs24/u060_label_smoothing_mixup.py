import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = data(6, 4, scale=2.0)
y = torch.tensor([0, 3, 1, 2, 2, 0])
ls = F.cross_entropy(logits, y, label_smoothing=0.1)
n = logits.size(-1)
smooth = torch.full_like(logits, 0.1 / n).scatter_(1, y.unsqueeze(1), 0.9 + 0.1 / n)
manual = (-smooth * F.log_softmax(logits, -1)).sum(-1).mean()
soft_ce = F.cross_entropy(logits, smooth)
# mixup with a fixed lambda and permutation
lam = float(np.random.RandomState(0).beta(0.4, 0.4))
perm = torch.tensor([3, 0, 5, 1, 2, 4])
x = data(6, 3)
mixed_x = lam * x + (1 - lam) * x[perm]
mixed_loss = lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[perm])
y_soft = lam * F.one_hot(y, 4).float() + (1 - lam) * F.one_hot(y[perm], 4).float()
kl = F.kl_div(F.log_softmax(logits, -1), y_soft, reduction="batchmean")
ls_w = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 1.0, 0.5]), label_smoothing=0.2)(logits, y)
report(ls=ls.item(), manual=manual.item(), soft_ce=soft_ce.item(), lam=lam, mixed_x=mixed_x[0], mixed_loss=mixed_loss.item(),
       kl=kl.item(), ls_w=ls_w.item())
