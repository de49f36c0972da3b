import torch
import torch.nn.functional as F

a = torch.tensor([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0], [1.0, -1.0, 2.0]])
b = torch.tensor([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])
report(norm=F.normalize(a, dim=1), norm_p1=F.normalize(a, p=1, dim=1), cd2=torch.cdist(a, b), cd1=torch.cdist(a, b, p=1), cdinf=torch.cdist(a, b, p=float("inf")),
       cd0=torch.cdist(a, b, p=0), cd3=torch.cdist(a, b, p=3), pdist=F.pdist(a), cos=F.cosine_similarity(a, a.roll(1, 0), dim=1),
       pair=F.pairwise_distance(a[:2], b), pair_p1=F.pairwise_distance(a[:2], b, p=1), tml_p1=F.triplet_margin_loss(a[:2], a[1:], b, p=1, margin=0.5).item())
