import torch
import torch.nn.functional as F

T, C = 3, 4
lp = F.log_softmax(data(T, 2, C), dim=-1).requires_grad_()
targets = torch.tensor([[1, 2, 3, 1], [1, 1, 0, 0]])
il = torch.tensor([3, 3])
tl = torch.tensor([4, 2])
inf_loss = F.ctc_loss(lp, targets, il, tl, reduction="none")
zero = F.ctc_loss(lp, targets, il, tl, reduction="none", zero_infinity=True)
mean = F.ctc_loss(lp, targets, il, tl, reduction="mean", zero_infinity=True)
mean.backward()
total = F.ctc_loss(lp.detach(), targets, il, tl, reduction="sum", zero_infinity=True)
report(inf_loss=inf_loss, zero=zero, mean=mean.item(), grad=lp.grad[:, 1], grad_zero_sample=lp.grad[:, 0].abs().sum().item(), total=total.item())
