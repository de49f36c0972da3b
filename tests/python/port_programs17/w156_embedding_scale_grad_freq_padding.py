import torch
import torch.nn as nn

e = det(nn.Embedding(5, 2, padding_idx=1, scale_grad_by_freq=True))
idx = torch.tensor([[0, 1, 0], [3, 0, 1]])
e(idx).sum().backward()
e2 = det(nn.Embedding(5, 2, padding_idx=-1))
out = e2(torch.tensor([4, 0]))
f = nn.functional.embedding(torch.tensor([2, 2]), torch.arange(10.0).view(5, 2), max_norm=3.0)
report(g=e.weight.grad, pad=e2.padding_idx, out=out, f=f)
