import torch
import torch.nn as nn
import torch.nn.functional as F

a, p, n = data(4, 3, seed=1), data(4, 3, seed=2), data(4, 3, seed=3)
t = nn.TripletMarginLoss(margin=1.0, p=2)
c = nn.CosineEmbeddingLoss(margin=0.1)
y = torch.tensor([1, -1, 1, -1])
m = nn.MarginRankingLoss(margin=0.5)
report(t=t(a, p, n), c=c(a, p, y), m=m(a[:, 0], p[:, 0], y.float()),
       tf=F.triplet_margin_loss(a, p, n, swap=True), cs=F.cosine_similarity(a, p),
       twd=F.triplet_margin_with_distance_loss(a, p, n, distance_function=lambda x, y: 1 - F.cosine_similarity(x, y)))
