import torch
import torch.nn as nn
import torch.nn.functional as F

emb = det(nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4)))
x = data(12, 6)
labels = torch.tensor([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
opt = torch.optim.SGD(emb.parameters(), lr=0.05)
hist = []
for _ in range(5):
    e = emb(x)
    d = torch.cdist(e, e, p=2)
    same = labels[:, None] == labels[None, :]
    eye = torch.eye(12, dtype=torch.bool)
    pos_mask = same & ~eye
    hardest_pos = (d * pos_mask.float()).max(1).values
    hardest_neg = d.masked_fill(same, float("inf")).min(1).values
    loss = F.relu(hardest_pos - hardest_neg + 0.5).mean()
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
e = emb(x).detach()
a, p, n = e[[0, 3, 6]], e[[1, 4, 7]], e[[9, 0, 3]]
tml = nn.TripletMarginLoss(margin=1.0, p=2)(a, p, n)
tml_swap = F.triplet_margin_loss(a, p, n, margin=0.5, swap=True, reduction="none")
tmdl = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.2)(a, p, n)
report(hist=hist, tml=tml.item(), tml_swap=tml_swap, tmdl=tmdl.item(), pdist=F.pdist(e[:4]), cdist1=torch.cdist(e[:2], e[2:4], p=1))
