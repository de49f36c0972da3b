import torch
import torch.nn as nn
import torch.nn.functional as F

logits = data(2, 5, 7)
labels = ints(7, 2, 5)
labels[0, 3:] = -100
mask = (labels != -100).float()
per_tok = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none", ignore_index=-100)
avg = (per_tok * mask).sum() / mask.sum()
ref = F.cross_entropy(logits.view(-1, 7), labels.view(-1))
shift_logits = logits[..., :-1, :].contiguous()
shift_labels = labels[..., 1:].contiguous()
lm = nn.CrossEntropyLoss()(shift_logits.view(-1, 7), shift_labels.view(-1))
w = torch.tensor([1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 3.0])
wl = F.cross_entropy(logits.view(-1, 7), labels.view(-1), weight=w, label_smoothing=0.1)
nll = F.nll_loss(F.log_softmax(logits, -1).view(-1, 7), labels.view(-1), reduction="sum")
report(per_tok=per_tok, avg=avg, ref=ref, lm=lm, wl=wl, nll=nll)
