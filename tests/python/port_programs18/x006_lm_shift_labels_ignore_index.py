import torch
import torch.nn as nn
import torch.nn.functional as F

V = 9
logits = data(2, 6, V, seed=3)
labels = torch.tensor([[1, 4, 2, 8, -100, -100], [3, 3, 0, 5, 7, 2]])
shift_logits = logits[..., :-1, :].contiguous()
shift_labels = labels[..., 1:].contiguous()
loss_fct = nn.CrossEntropyLoss()
loss = loss_fct(shift_logits.view(-1, V), shift_labels.view(-1))
per_tok = F.cross_entropy(shift_logits.view(-1, V), shift_labels.view(-1), reduction="none")
n_valid = (shift_labels != -100).sum()
ppl = torch.exp(per_tok.sum() / n_valid)
smooth = F.cross_entropy(shift_logits.reshape(-1, V), shift_labels.reshape(-1), label_smoothing=0.1)
acc = ((shift_logits.argmax(-1) == shift_labels) & (shift_labels != -100)).sum().float() / n_valid
report(loss=loss, per_tok=per_tok, ppl=ppl, smooth=smooth, acc=acc, n_valid=n_valid.item())
