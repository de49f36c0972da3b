import torch
import torch.nn as nn

lin1 = det(nn.Linear(3, 4), seed=1)
lin2 = det(nn.Linear(4, 2), seed=2)
x = data(5, 3, seed=3)
h = lin1(x)
h.retain_grad()
a = torch.relu(h)
a.retain_grad()
out = lin2(a)
loss = out.logsumexp(1).mean()
loss.backward()
warn = None
b = (x * 2).requires_grad_()
report(hg=h.grad, ag=a.grad, leaf=[h.is_leaf, lin1.weight.is_leaf, b.is_leaf], out_grad=out.grad, gfn=h.grad_fn.name(),
       nf=[type(fn).__name__ for fn, _ in loss.grad_fn.next_functions if fn is not None])
