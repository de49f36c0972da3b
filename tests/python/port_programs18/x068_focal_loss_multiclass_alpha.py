import torch
import torch.nn.functional as F


class FocalLoss(torch.nn.Module):
    def __init__(self, alpha=None, gamma=2.0, reduction="mean"):
        super().__init__()
        self.alpha, self.gamma, self.reduction = alpha, gamma, reduction

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, reduction="none", weight=self.alpha)
        pt = torch.exp(-F.cross_entropy(logits, target, reduction="none"))
        loss = (1 - pt) ** self.gamma * ce
        return loss.mean() if self.reduction == "mean" else loss.sum()


logits = data(6, 3, seed=4).requires_grad_()
t = torch.tensor([0, 1, 2, 2, 1, 0])
fl = FocalLoss(alpha=torch.tensor([0.25, 0.5, 0.25]))(logits, t)
fl.backward()
report(fl=fl, g=logits.grad[0], sum=FocalLoss(reduction="sum")(logits.detach(), t))
