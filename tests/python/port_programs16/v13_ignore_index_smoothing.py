import torch
import torch.nn.functional as F

logits = data(3, 4, 5, scale=2.0).requires_grad_()
target = torch.tensor([[1, 2, -100, 4], [0, -100, -100, 3], [2, 2, 1, 0]])
weight = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0])
l1 = F.cross_entropy(logits.transpose(1, 2), target, weight=weight, label_smoothing=0.2)
l2 = F.cross_entropy(logits.reshape(-1, 5), target.view(-1), reduction="none", label_smoothing=0.1)
l3 = F.cross_entropy(logits.reshape(-1, 5), target.view(-1).clamp(min=0), reduction="sum", ignore_index=2)
mask = target.ne(-100)
logp = logits.log_softmax(-1)
manual = -(logp.gather(-1, target.clamp(min=0).unsqueeze(-1)).squeeze(-1) * mask).sum() / mask.sum()
probs = F.softmax(logits.detach().reshape(-1, 5), -1)
l4 = F.cross_entropy(logits.reshape(-1, 5), probs.flip(0))
(l1 + l3 + manual + l4).backward()
report(l1=l1.item(), l2=l2.detach(), l3=l3.item(), manual=manual.item(), l4=l4.item(), g=logits.grad[0])
