import torch
import torch.nn as nn

logits = data(4, 3, seed=1).requires_grad_()
target = torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
pos = target.shape[0] / target.sum(0) - 1
crit = nn.BCEWithLogitsLoss(pos_weight=pos, weight=torch.tensor([1.0, 0.5, 2.0]), reduction="mean")
loss = crit(logits, target)
loss.backward()
soft = target * 0.9 + 0.05
l2 = nn.BCEWithLogitsLoss(reduction="none")(logits, soft)
l3 = nn.BCELoss()(torch.sigmoid(logits), target)
report(pos=pos, loss=loss, g=logits.grad, l2=l2, l3=l3)
