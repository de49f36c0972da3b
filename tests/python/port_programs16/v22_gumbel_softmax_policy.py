import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = data(5, 4).requires_grad_()
soft = F.gumbel_softmax(logits, tau=0.5)
hard = F.gumbel_softmax(logits, tau=1.0, hard=True)
(hard * torch.arange(4.0)).sum().backward()
g = logits.grad.clone()
logits.grad = None
probs = F.softmax(logits / 0.5, dim=-1)
idx = probs.argmax(-1)
y_hard = torch.zeros_like(probs).scatter_(-1, idx.unsqueeze(-1), 1.0)
st = y_hard - probs.detach() + probs
(st * torch.arange(4.0)).sum().backward()
report(soft_sums=soft.sum(-1).detach(), hard_sums=hard.sum(-1).detach(), hard_vals=sorted(set(hard.detach().flatten().tolist())),
       gsum_rows=g.sum(-1), st=st.detach(), stgrad=logits.grad, shape=list(soft.shape))
