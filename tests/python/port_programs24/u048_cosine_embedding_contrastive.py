import torch
import torch.nn as nn
import torch.nn.functional as F

x1 = data(6, 5)
x2 = data(6, 5, seed=4)
y = torch.tensor([1, -1, 1, -1, 1, 1])
cel = nn.CosineEmbeddingLoss(margin=0.2)(x1, x2, y)
cel_none = F.cosine_embedding_loss(x1, x2, y, reduction="none")
cos = F.cosine_similarity(x1, x2, dim=1)
cos_mat = F.cosine_similarity(x1.unsqueeze(1), x2.unsqueeze(0), dim=-1)
d = F.pairwise_distance(x1, x2, p=2, eps=1e-6, keepdim=False)
same = (y == 1).float()
contrastive = (same * d.pow(2) + (1 - same) * F.relu(1.0 - d).pow(2)).mean() / 2
hinge = nn.HingeEmbeddingLoss(margin=2.0)(d, y)
mrl = nn.MarginRankingLoss(margin=0.1)(cos, cos.flip(0), y.float())
report(cel=cel.item(), cel_none=cel_none, cos=cos, cos_mat_diag=cos_mat.diagonal(), d=d, contrastive=contrastive.item(),
       hinge=hinge.item(), mrl=mrl.item(), zero=F.cosine_similarity(torch.zeros(1, 3), torch.ones(1, 3)))
