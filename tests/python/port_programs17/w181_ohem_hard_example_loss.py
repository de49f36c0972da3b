import torch
import torch.nn.functional as F

logits = data(10, 4, seed=1).requires_grad_()
target = ints(4, 10, seed=3)
per = F.cross_entropy(logits, target, reduction="none")
k = 4
hard, idx = per.topk(k)
loss = hard.mean()
loss.backward()
w = torch.zeros(10).index_fill_(0, idx, 1.0)
report(per=per, idx=idx.sort().values, loss=loss, g=logits.grad[idx[0]], w=w, nz=(logits.grad.abs().sum(1) > 0).sum())
