import torch
import torch.nn as nn

e = det(nn.Embedding(6, 2, scale_grad_by_freq=True))
idx = torch.tensor([[1, 1, 2], [1, 3, 3]])
e(idx).sum().backward()
g = e.weight.grad.clone()
e2 = det(nn.Embedding(6, 2, max_norm=0.5, norm_type=1.0), seed=3)
out = e2(torch.tensor([0, 4]))
report(g=g, out=out, w0=e2.weight[0], w5=e2.weight[5])
