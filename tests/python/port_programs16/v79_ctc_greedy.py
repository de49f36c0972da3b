import torch
import torch.nn.functional as F

T, B, C = 8, 2, 5
logits = data(T, B, C, scale=2.0).requires_grad_()
log_probs = logits.log_softmax(2)
targets = torch.tensor([1, 2, 2, 3, 1, 4])
input_lengths = torch.tensor([8, 6])
target_lengths = torch.tensor([4, 2])
loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=True)
loss_none = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="none")
loss.backward()
best = log_probs.argmax(2).t()
decoded = []
for b in range(B):
    seq = torch.unique_consecutive(best[b, :input_lengths[b]])
    decoded.append(seq[seq != 0].tolist())
padded_t = torch.tensor([[1, 2, 2, 3], [1, 4, 0, 0]])
loss_pad = F.ctc_loss(log_probs, padded_t, input_lengths, target_lengths)
report(loss=loss.item(), none=loss_none.detach(), g=logits.grad[0, 0], decoded=decoded, pad=loss_pad.item())
