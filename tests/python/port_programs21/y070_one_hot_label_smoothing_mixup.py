import torch
import torch.nn.functional as F

y = torch.tensor([2, 0, 1, 2])
oh = F.one_hot(y, num_classes=4).float()
smooth = oh * (1 - 0.1) + 0.1 / 4
logits = data(4, 4, seed=1)
lam = 0.7
perm = torch.tensor([3, 2, 1, 0])
mixed_x = lam * data(4, 5, seed=2) + (1 - lam) * data(4, 5, seed=2)[perm]
loss_mix = lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[perm])
soft = F.cross_entropy(logits, smooth)
ls = F.cross_entropy(logits, y, label_smoothing=0.1)
manual = -(smooth * F.log_softmax(logits, -1)).sum(-1).mean()
report(oh=oh, ohd=F.one_hot(y).dtype, auto=F.one_hot(torch.tensor([[0, 3]])).shape, soft=soft.item(), ls=ls.item(),
       manual=manual.item(), mix=loss_mix.item(), mx=mixed_x[0], kl=F.kl_div(F.log_softmax(logits, -1), smooth, reduction="batchmean"))
