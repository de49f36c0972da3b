import torch
import torch.nn.functional as F


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2, reduction="none"):
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


x = data(4, 3, seed=2).requires_grad_()
t = torch.tensor([[1.0, 0, 0], [0, 1, 0], [0, 0, 0], [1, 0, 1]])
l = sigmoid_focal_loss(x, t, reduction="sum")
l.backward()
sl1 = F.smooth_l1_loss(x, t, beta=0.5, reduction="none")
hub = F.huber_loss(x, t, delta=0.7)
report(l=l, g=x.grad, sl1=sl1, hub=hub, pw=F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor([1.0, 2.0, 3.0])))
