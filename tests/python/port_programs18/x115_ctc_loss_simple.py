import torch
import torch.nn.functional as F

T, N, C = 6, 2, 4
logp = data(T, N, C, seed=2).log_softmax(2).requires_grad_()
targets = torch.tensor([1, 2, 2, 3, 1])
il = torch.tensor([6, 5])
tl = torch.tensor([3, 2])
loss = F.ctc_loss(logp, targets, il, tl, blank=0, reduction="mean", zero_infinity=True)
loss.backward()
ls = F.ctc_loss(logp, targets, il, tl, reduction="none")
report(loss=loss, ls=ls, g=logp.grad[0, 0])
