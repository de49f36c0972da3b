import torch
import torch.nn as nn

e = det(nn.Embedding(6, 3, padding_idx=0))
with torch.no_grad():
    e.weight[0].fill_(0)
idx = torch.tensor([[0, 2, 4], [1, 0, 5]])
out = e(idx)
out.sum().backward()
pad_grad = e.weight.grad[0]
e2 = det(nn.Embedding(5, 3, max_norm=1.0), seed=3)
before = e2.weight.clone()
o2 = e2(torch.tensor([1, 2]))
norms = e2.weight.norm(dim=1)
pre = nn.Embedding.from_pretrained(torch.arange(12.0).view(4, 3), freeze=True)
eb = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).view(4, 3), mode="mean")
bag = eb(torch.tensor([0, 1, 2, 3]), torch.tensor([0, 3]))
report(out=out, pad_grad=pad_grad, g=e.weight.grad, norms=norms, changed=(before != e2.weight).any(1), o2=o2,
       pre=pre(torch.tensor([3])), frozen=pre.weight.requires_grad, bag=bag)
