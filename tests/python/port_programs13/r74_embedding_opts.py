import torch
import torch.nn as nn
import torch.nn.functional as F
emb = nn.Embedding(10, 4, padding_idx=2, max_norm=1.0)
det(emb, 0, 1.0)
with torch.no_grad():
    emb.weight[2] = 0
idx = torch.tensor([[1, 2, 3], [3, 4, 2]])
out = emb(idx)
norms = emb.weight.norm(dim=1)
out.sum().backward()
pre = torch.arange(12.0).view(4, 3)
fz = nn.Embedding.from_pretrained(pre, freeze=True)
nf = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=0)
sc = nn.Embedding(5, 2, scale_grad_by_freq=True); det(sc, 1)
sc(torch.tensor([1, 1, 1, 3])).sum().backward()
fo = F.embedding(torch.tensor([0, 3]), pre)
oh = F.one_hot(torch.tensor([[0, 2], [1, 1]]), num_classes=4)
report(out=out[0], norms=norms[:5], gpad=emb.weight.grad[2], g1=emb.weight.grad[3], fz=fz.weight.requires_grad, nf=nf.weight.requires_grad, nfpad=nf.padding_idx,
       sc=sc.weight.grad, fo=fo, oh=oh, ohdt=oh.dtype, emb_repr=repr(emb))
