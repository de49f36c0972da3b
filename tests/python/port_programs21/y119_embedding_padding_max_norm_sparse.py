import torch
import torch.nn as nn

emb = det(nn.Embedding(6, 3, padding_idx=0), seed=1)
with torch.no_grad():
    emb.weight[0].zero_()
ids = torch.tensor([[0, 2, 3], [4, 0, 2]])
out = emb(ids)
out.sum().backward()
pre = nn.Embedding.from_pretrained(data(4, 3, seed=2), freeze=True)
pre2 = nn.Embedding.from_pretrained(data(4, 3, seed=2), freeze=False, padding_idx=1)
mn = nn.Embedding(4, 3, max_norm=1.0)
det(mn, seed=3, scale=2.0)
mo = mn(torch.tensor([1, 2]))
report(out=out.detach(), g=emb.weight.grad, pre_req=pre.weight.requires_grad, pre2_req=pre2.weight.requires_grad,
       mn_norms=mo.norm(dim=1), renormed=mn.weight.norm(dim=1), pad=pre2.padding_idx)
