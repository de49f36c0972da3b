import torch
import torch.nn as nn

T, N, C = 4, 2, 4
lp = data(T, N, C, seed=42).log_softmax(-1).detach().requires_grad_()
targets = torch.tensor([[1, 1, 1, 1], [2, 3, 0, 0]])
il = torch.tensor([4, 4])
tl = torch.tensor([4, 2])
inf_loss = nn.CTCLoss(reduction="none")(lp, targets, il, tl)
zi = nn.CTCLoss(reduction="none", zero_infinity=True)(lp, targets, il, tl)
zi.sum().backward()
blank3 = nn.CTCLoss(blank=3, reduction="mean")(lp, torch.tensor([[1, 0], [2, 2]]), il, torch.tensor([2, 2]))
report(inf=inf_loss, zi=zi, grad=lp.grad[:, 0], blank3=blank3)
