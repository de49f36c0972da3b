import torch
import torch.nn as nn
import torch.nn.functional as F

bag = det(nn.EmbeddingBag(10, 3, mode="sum"))
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 3, 3, 6])
w = torch.tensor([0.5, 1.0, 2.0, 1.0, -1.0, 0.5, 0.25, 1.0])
out = bag(inp, offsets, per_sample_weights=w)
out.sum().backward()
out2d = F.embedding_bag(torch.tensor([[1, 2], [3, 3]]), bag.weight, mode="max")
incl = F.embedding_bag(inp, bag.weight, offsets=torch.tensor([0, 3, 6, 8]), mode="mean", include_last_offset=True)
pad = nn.EmbeddingBag(10, 3, mode="mean", padding_idx=2)
det(pad)
pout = pad(torch.tensor([[2, 2, 1], [3, 2, 4]]))
emb = nn.Embedding.from_pretrained(torch.arange(12.0).view(4, 3), freeze=False, padding_idx=0)
e = emb(torch.tensor([[0, 3], [1, 0]]))
e.sum().backward()
report(out=out.detach(), g=bag.weight.grad[2], out2d=out2d.detach(), incl=incl.detach(), pout=pout.detach(), eg=emb.weight.grad, e=e.detach())
