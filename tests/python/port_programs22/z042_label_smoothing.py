import torch
import torch.nn as nn
import torch.nn.functional as F

logits = data(5, 4, seed=48, scale=2.0).requires_grad_()
y = torch.tensor([0, 3, -100, 2, 1])
a = F.cross_entropy(logits, y, label_smoothing=0.1, ignore_index=-100)
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
b = nn.CrossEntropyLoss(weight=w, label_smoothing=0.2)(logits, y.clamp(min=0))
c = F.cross_entropy(logits, y.clamp(min=0), label_smoothing=0.1, reduction="none")
probs_t = F.one_hot(y.clamp(min=0), 4).float() * 0.9 + 0.1 / 4
d = F.cross_entropy(logits, probs_t, label_smoothing=0.0)

def hf_label_smoother(logits, labels, epsilon=0.1, ignore_index=-100):
    log_probs = -nn.functional.log_softmax(logits, dim=-1)
    if labels.dim() == log_probs.dim() - 1:
        labels = labels.unsqueeze(-1)
    padding_mask = labels.eq(ignore_index)
    labels = torch.clamp(labels, min=0)
    nll_loss = log_probs.gather(dim=-1, index=labels)
    smoothed_loss = log_probs.sum(dim=-1, keepdim=True, dtype=torch.float32)
    nll_loss.masked_fill_(padding_mask, 0.0)
    smoothed_loss.masked_fill_(padding_mask, 0.0)
    num_active = padding_mask.numel() - padding_mask.long().sum()
    nll_loss = nll_loss.sum() / num_active
    smoothed_loss = smoothed_loss.sum() / (num_active * log_probs.shape[-1])
    return (1 - epsilon) * nll_loss + epsilon * smoothed_loss

e = hf_label_smoother(logits, y)
(a + b + e).backward()
report(a=a, b=b, c=c, d=d, e=e, g=logits.grad)
