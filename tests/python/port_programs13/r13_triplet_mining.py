import torch
import torch.nn as nn
import torch.nn.functional as F
def batch_hard_triplet(emb, labels, margin=0.3):
    dist = torch.cdist(emb, emb, p=2)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos_mask = same & ~eye
    hardest_pos = (dist * pos_mask.float()).max(dim=1)[0]
    max_d = dist.max(dim=1, keepdim=True)[0]
    hardest_neg = (dist + max_d * same.float()).min(dim=1)[0]
    return F.relu(hardest_pos - hardest_neg + margin).mean()
net = det(nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 4)))
x = data(12, 6)
labels = torch.tensor([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
L = []
for i in range(5):
    emb = F.normalize(net(x), p=2, dim=1)
    loss = batch_hard_triplet(emb, labels)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
tl = nn.TripletMarginLoss(margin=1.0, p=2, swap=True)
a, p, n = emb[0::3], emb[1::3], emb[2::3].roll(1, 0)
t2 = tl(a, p, n)
twd = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.5)(a, p, n)
report(L=L, t2=t2, twd=twd, pd=F.pairwise_distance(a, p), pdist=F.pdist(emb[:4]))
