import torch
import torch.nn as nn

a = ints(7, 12, seed=1)
b = ints(5, 12, seed=2)
cross = (a * 31 + b * 17) % 11
emb = det(nn.EmbeddingBag(11, 3, mode="mean"))
bags = torch.stack([a % 11, b % 11, cross], 1)
out = emb(bags)
counts = torch.zeros(11).index_add_(0, cross, torch.ones(12))
collisions = (counts > 1).sum()
uniq_pairs = torch.unique(torch.stack([a, b], 1), dim=0).shape[0]
report(cross=cross, out=out[:3], collisions=collisions.item(), uniq_pairs=uniq_pairs, bag_grad=torch.autograd.grad(out.sum(), emb.weight)[0].sum(1))
