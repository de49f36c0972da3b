import torch
import torch.nn as nn
import torch.nn.functional as F

T, N, C = 8, 2, 5
log_probs = data(T, N, C, seed=41).log_softmax(2).detach().requires_grad_()
targets = torch.tensor([[1, 2, 2, 3], [4, 1, 0, 0]])
input_lengths = torch.tensor([8, 6])
target_lengths = torch.tensor([4, 2])
r = {}
for red in ("mean", "sum", "none"):
    r[red] = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=red)
loss = nn.CTCLoss(blank=0)(log_probs, targets, input_lengths, target_lengths)
loss.backward()
flat = torch.tensor([1, 2, 2, 3, 4, 1])
r["flat"] = F.ctc_loss(log_probs, flat, input_lengths, target_lengths, reduction="sum")
r["grad"] = log_probs.grad[:, 1]
report(**r)
