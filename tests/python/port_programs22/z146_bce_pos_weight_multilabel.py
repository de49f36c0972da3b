import torch
import torch.nn as nn
import torch.nn.functional as F

logits = data(6, 4, seed=206, scale=2.0).requires_grad_()
targets = (data(6, 4, seed=207) > 0.3).float()
pw = torch.tensor([1.0, 2.0, 3.0, 0.5])
l1 = nn.BCEWithLogitsLoss(pos_weight=pw)(logits, targets)
l2 = F.binary_cross_entropy_with_logits(logits, targets, weight=torch.tensor([1.0, 0.5, 2.0, 1.0]), pos_weight=pw, reduction="sum")
l3 = F.binary_cross_entropy(torch.sigmoid(logits), targets, weight=torch.ones(6, 1) * 0.5)
soft = F.binary_cross_entropy_with_logits(logits, targets * 0.9 + 0.05)
ml = nn.MultiLabelSoftMarginLoss()(logits, targets)
(l1 + l2 + l3 + soft + ml).backward()
report(l1=l1, l2=l2, l3=l3, soft=soft, ml=ml, g=logits.grad[0], clamp=F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
