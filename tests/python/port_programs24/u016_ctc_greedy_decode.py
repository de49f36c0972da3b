import torch
import torch.nn as nn
import torch.nn.functional as F

T, N, C = 12, 2, 5  # blank = 0
logits = data(T, N, C, scale=2.0)
log_probs = F.log_softmax(logits, dim=2).requires_grad_()
targets = torch.tensor([1, 2, 2, 3, 4, 1])
input_lengths = torch.tensor([12, 10])
target_lengths = torch.tensor([4, 2])
ctc = nn.CTCLoss(blank=0, reduction="mean", zero_infinity=True)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
loss.backward()
loss_sum = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="none")


def greedy(lp, length, blank=0):
    best = lp[:length].argmax(-1)
    collapsed = torch.unique_consecutive(best)
    return collapsed[collapsed != blank].tolist()


decoded = [greedy(log_probs[:, b].detach(), input_lengths[b]) for b in range(N)]
padded_targets = torch.tensor([[1, 2, 2, 3], [4, 1, 0, 0]])
loss_2d = F.ctc_loss(log_probs, padded_targets, input_lengths, target_lengths)
report(loss=loss.item(), loss_sum=loss_sum, grad_sum=log_probs.grad.sum(0), decoded=decoded, loss_2d=loss_2d.item())
