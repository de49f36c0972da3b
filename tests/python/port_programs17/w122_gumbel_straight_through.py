import torch
import torch.nn.functional as F

logits = data(3, 4, seed=1).requires_grad_()
y_soft = F.softmax(logits / 0.5, dim=-1)
index = y_soft.max(-1, keepdim=True)[1]
y_hard = torch.zeros_like(logits, memory_format=torch.legacy_contiguous_format).scatter_(-1, index, 1.0)
st = y_hard - y_soft.detach() + y_soft
(st * torch.arange(4.0)).sum().backward()
torch.manual_seed(0)
g = F.gumbel_softmax(logits, tau=0.5, hard=True)
report(st=st, g=logits.grad, onehot=bool((g.sum(-1) == 1).all()), gs=list(g.shape), vals=sorted(set(g.detach().flatten().tolist())))
