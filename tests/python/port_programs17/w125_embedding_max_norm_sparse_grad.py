import torch
import torch.nn as nn

e = det(nn.Embedding(6, 3, max_norm=0.5, norm_type=2.0), scale=1.0)
idx = torch.tensor([[1, 2], [2, 4]])
y = e(idx)
norms = e.weight.norm(dim=1)
s = det(nn.Embedding(6, 3, sparse=True), seed=2)
s(torch.tensor([1, 1, 3])).sum().backward()
g = s.weight.grad
opt = torch.optim.SGD(s.parameters(), lr=0.5)
opt.step()
fb = nn.Embedding.from_pretrained(torch.arange(12.0).view(4, 3), freeze=True, padding_idx=1)
report(y=y, norms=norms, gd=g.to_dense(), w=s.weight, fb=fb(torch.tensor([1, 3])), rg=fb.weight.requires_grad)
