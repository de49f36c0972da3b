import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, C = 2, 5, 4
logits = data(B, T, C).requires_grad_()
tags = torch.tensor([[1, 2, 0, 3, -100], [0, 0, 1, -100, -100]])
loss_a = F.cross_entropy(logits.permute(0, 2, 1), tags)
loss_b = F.cross_entropy(logits.view(-1, C), tags.view(-1))
crit = nn.CrossEntropyLoss(reduction="sum", label_smoothing=0.05)
loss_c = crit(logits.transpose(1, 2), tags)
nll = nn.NLLLoss(weight=torch.tensor([1.0, 2.0, 1.0, 0.5]), reduction="mean")(F.log_softmax(logits, -1).permute(0, 2, 1), tags)
(loss_a + loss_c + nll).backward()
pred = logits.argmax(-1)
valid = tags != -100
acc = (pred[valid] == tags[valid]).float().mean()
img_logits = data(1, 3, 2, 2, seed=4)
img_t = torch.tensor([[[0, 2], [1, -100]]])
seg = F.cross_entropy(img_logits, img_t, weight=torch.tensor([0.2, 0.3, 0.5]))
report(a=loss_a.item(), b=loss_b.item(), c=loss_c.item(), nll=nll.item(), g=logits.grad[1, 0], acc=acc.item(), seg=seg.item())
