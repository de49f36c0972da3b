import torch
import torch.nn as nn
import torch.nn.functional as F

logits = data(5, 3, seed=1)
y = torch.tensor([0, 2, 1, -100, 2])
w = torch.tensor([1.0, 2.0, 0.5])
pos_weight = torch.tensor([2.0, 1.0, 0.5])
t = (data(5, 3, seed=2) > 0).float()
report(ce=F.cross_entropy(logits, y), cew=F.cross_entropy(logits, y, weight=w), ce_none=F.cross_entropy(logits, y, reduction="none"),
       ce_sum=F.cross_entropy(logits, y, reduction="sum"), ign=F.cross_entropy(logits, y.clamp(min=0), ignore_index=2),
       bce_pw=F.binary_cross_entropy_with_logits(logits, t, pos_weight=pos_weight),
       bce_w=nn.BCEWithLogitsLoss(weight=torch.tensor([1.0, 0.0, 2.0]), reduction="sum")(logits, t),
       nll=F.nll_loss(F.log_softmax(logits, 1), y), huber=F.huber_loss(logits, t, delta=0.5),
       sl1=F.smooth_l1_loss(logits, t, beta=0.5), kl=F.kl_div(F.log_softmax(logits, 1), F.log_softmax(t, 1), log_target=True, reduction="batchmean"),
       focal_like=(F.binary_cross_entropy_with_logits(logits, t, reduction="none") * (1 - torch.sigmoid(logits)).pow(2)).mean(),
       pnll=F.poisson_nll_loss(logits, t), gnll=F.gaussian_nll_loss(logits, t, torch.ones(5, 3) * 0.5),
       ml=F.multilabel_soft_margin_loss(logits, t), mm=F.multi_margin_loss(logits, y.clamp(min=0)))
