import torch
import torch.nn as nn

a, b = data(6, 4).requires_grad_(), data(6, 4, seed=3)
y = torch.tensor([1, -1, 1, 1, -1, -1])
cos = nn.CosineEmbeddingLoss(margin=0.2)(a, b, y)
cos_none = nn.functional.cosine_embedding_loss(a, b, y.float(), reduction="none")
s1, s2 = a.sum(1), b.sum(1)
rank = nn.MarginRankingLoss(margin=0.5)(s1, s2, y.float())
hinge = nn.HingeEmbeddingLoss(margin=1.5)(torch.pairwise_distance(a, b), y)
trip = nn.TripletMarginWithDistanceLoss(distance_function=lambda x, z: 1 - nn.functional.cosine_similarity(x, z), margin=0.3, swap=True)(a, b, b.roll(1, 0))
trip2 = nn.TripletMarginLoss(margin=1.0, p=1, swap=False, reduction="sum")(a, b, b.flip(0))
(cos + rank + hinge + trip + trip2).backward()
report(cos=cos.item(), cos_none=cos_none.detach(), rank=rank.item(), hinge=hinge.item(), trip=trip.item(), trip2=trip2.item(),
       grad=a.grad[0], pd=torch.pairwise_distance(a, b, p=3, keepdim=True).detach()[:2])
