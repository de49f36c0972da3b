import torch
import torch.nn as nn
import torch.nn.functional as F

net = det(nn.Sequential(nn.Linear(5, 6), nn.ReLU(), nn.Linear(6, 3)))
a, b = data(4, 5, seed=1), data(4, 5, seed=2)
same = torch.tensor([1.0, 0.0, 1.0, 0.0])
ea, eb = net(a), net(b)
d = F.pairwise_distance(ea, eb, p=2.0, eps=1e-6)
margin = 1.0
loss = (same * d.pow(2) + (1 - same) * F.relu(margin - d).pow(2)).mean() / 2
loss.backward()
cos = F.cosine_similarity(ea, eb, dim=1, eps=1e-8)
cos_mat = F.cosine_similarity(ea.unsqueeze(1), eb.unsqueeze(0), dim=-1)
pd = torch.pdist(ea)
cd = torch.cdist(ea, eb, p=1)
report(d=d, loss=loss, cos=cos, cos_mat=cos_mat, pd=pd, cd=cd, g=net[0].bias.grad, mod=nn.PairwiseDistance(p=1)(ea, eb),
       cosm=nn.CosineSimilarity(dim=0)(ea, eb))
