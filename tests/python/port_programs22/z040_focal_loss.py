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

class FocalLoss(torch.nn.Module):
    def __init__(self, gamma=2.0, weight=None):
        super().__init__()
        self.gamma, self.weight = gamma, weight

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        ce = F.nll_loss(logp, target, weight=self.weight, reduction="none")
        pt = torch.exp(-F.cross_entropy(logits, target, reduction="none"))
        return ((1 - pt) ** self.gamma * ce).mean()

x = data(6, 3, seed=43, scale=2.0).requires_grad_()
t = (data(6, 3, seed=44) > 0).float()
l = sigmoid_focal_loss(x, t, reduction="mean")
l.backward()
fl = FocalLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(x, torch.tensor([0, 1, 2, 2, 1, 0]))
report(none=sigmoid_focal_loss(x, t)[0], mean=l, sum=sigmoid_focal_loss(x, t, alpha=-1, reduction="sum"), g=x.grad[:2], fl=fl)
