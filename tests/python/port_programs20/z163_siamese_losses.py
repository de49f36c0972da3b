import torch
import torch.nn as nn
import torch.nn.functional as F

net = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)))
a, p, n = data(5, 4), data(5, 4, seed=3), data(5, 4, seed=4)
ea, ep, en = net(a), net(p), net(n)
trip = nn.TripletMarginLoss(margin=1.0, p=2)(ea, ep, en)
cos = nn.CosineEmbeddingLoss(margin=0.1)(ea, ep, torch.tensor([1, -1, 1, -1, 1]))
pd = F.pairwise_distance(ea, ep)
contrastive = torch.mean((1 - torch.tensor([1.0, 0, 1, 0, 1])) * pd.pow(2) + torch.tensor([1.0, 0, 1, 0, 1]) * F.relu(2.0 - pd).pow(2))
mr = nn.MarginRankingLoss(margin=0.5)(pd, F.pairwise_distance(ea, en), torch.ones(5))
total = trip + cos + contrastive + mr
total.backward()
report(trip=trip, cos=cos, pd=pd, contrastive=contrastive, mr=mr, g=net[0].weight.grad.sum(), cs=F.cosine_similarity(ea, ep))
