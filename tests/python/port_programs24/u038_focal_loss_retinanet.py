import torch
import torch.nn.functional as F


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0, reduction="none"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


logits = data(6, 4, scale=2.0).requires_grad_()
cls = torch.tensor([0, 3, -1, 2, 1, -1])
valid = cls >= 0
targets = torch.zeros(6, 4)
targets[valid] = F.one_hot(cls[valid], 4).float()
num_pos = valid.sum().clamp(min=1)
loss = sigmoid_focal_loss(logits[valid], targets[valid], reduction="sum") / num_pos
loss.backward()
l_none = sigmoid_focal_loss(logits.detach(), targets)
ce = F.cross_entropy(logits.detach(), cls, ignore_index=-1, reduction="none")
pt = torch.exp(-ce)
multiclass_focal = ((1 - pt) ** 2 * ce)[valid].mean()
report(loss=loss.item(), grad=logits.grad, l_none=l_none[:2], ce=ce, mfocal=multiclass_focal.item(), targets=targets)
