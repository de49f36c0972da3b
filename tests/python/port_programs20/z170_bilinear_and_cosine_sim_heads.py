import torch
import torch.nn as nn
import torch.nn.functional as F

bil = det(nn.Bilinear(3, 4, 2))
a, b = data(5, 3), data(5, 4, seed=2)
out = bil(a, b)
out.sum().backward()
sim = F.cosine_similarity(a.unsqueeze(1), a.unsqueeze(0), dim=-1)
logits = sim / 0.1
labels = torch.arange(5)
nce = F.cross_entropy(logits, labels)
report(out=out, g=bil.weight.grad.sum(), sim=sim, nce=nce, names=[n for n, _ in bil.named_parameters()])
