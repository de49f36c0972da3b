import torch
import torch.nn as nn
import torch.nn.functional as F

bag_sum = det(nn.EmbeddingBag(10, 4, mode="sum"))
bag_max = nn.EmbeddingBag(10, 4, mode="max")
bag_max.weight = bag_sum.weight
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 3, 3, 5])
s = bag_sum(inp, offsets)
m = bag_max(inp, offsets)
weights = torch.linspace(0.5, 1.2, 8)
ws = bag_sum(inp, offsets, per_sample_weights=weights)
inp2d = torch.tensor([[1, 2, 3], [4, 4, 0]])
mean2d = F.embedding_bag(inp2d, bag_sum.weight, mode="mean")
last = nn.EmbeddingBag(10, 4, mode="mean", include_last_offset=True)
last.weight = bag_sum.weight
lo = last(inp, torch.tensor([0, 3, 5, 8]))
ws.sum().backward()
pre = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).view(6, 2), mode="sum", freeze=True)
report(s=s, m=m, ws=ws, mean2d=mean2d, lo=lo, g=bag_sum.weight.grad, pre=pre(torch.tensor([[0, 5], [2, 2]])),
       rg=pre.weight.requires_grad)
