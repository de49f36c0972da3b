import torch
import torch.nn.functional as F

a, b = data(4, 3, seed=1), data(5, 3, seed=2)
report(cos=F.cosine_similarity(a[:, None], b[None], dim=-1), cd=torch.cdist(a, b), cd1=torch.cdist(a, b, p=1),
       pd=F.pairwise_distance(a, b[:4], p=2, eps=1e-6, keepdim=True), pdist=F.pdist(a), cs=torch.nn.CosineSimilarity(dim=0)(a, b[:4]),
       manual=((a[:, None] - b[None]) ** 2).sum(-1).sqrt())
