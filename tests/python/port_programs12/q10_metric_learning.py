import torch
import torch.nn as nn
import torch.nn.functional as F
class Embed(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(6, 12), nn.PReLU(), nn.Linear(12, 4))
    def forward(self, x):
        return F.normalize(self.net(x), p=2, dim=1)
def batch_hard_triplet(emb, labels, margin=0.3):
    d = torch.cdist(emb, emb, p=2)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos = d.masked_fill(~same | eye, 0).max(dim=1).values
    neg = d.masked_fill(same, float('inf')).min(dim=1).values
    return F.relu(pos - neg + margin).mean()
def contrastive(e1, e2, y, margin=1.0):
    d = F.pairwise_distance(e1, e2)
    return torch.mean(y * d.pow(2) + (1 - y) * torch.clamp(margin - d, min=0.0).pow(2))
model = det(Embed(), scale=0.4)
x = data(12, 6); labels = torch.tensor([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
x = x + labels.unsqueeze(1).float() * 0.5
opt = torch.optim.Adam(model.parameters(), lr=0.01)
tl = nn.TripletMarginLoss(margin=0.5, p=2, swap=True)
cel = nn.CosineEmbeddingLoss(margin=0.1)
hist = []
for _ in range(6):
    opt.zero_grad()
    e = model(x)
    l1 = batch_hard_triplet(e, labels)
    l2 = tl(e[0::3], e[1::3], e[2::3].roll(1, 0))
    l3 = contrastive(e[:6], e[6:], (labels[:6] == labels[6:]).float())
    l4 = cel(e[:6], e[6:], torch.tensor([1, -1, 1, -1, 1, -1]))
    loss = l1 + l2 + l3 + l4
    loss.backward(); opt.step(); hist.append([l1.item(), l2.item(), l3.item(), l4.item()])
with torch.no_grad():
    e = model(x)
    d = torch.cdist(e, e)
    d.fill_diagonal_(float('inf'))
    nn_idx = d.argmin(dim=1)
    recall1 = (labels[nn_idx] == labels).float().mean()
    sim = e @ e.T
    d1 = torch.cdist(e, e, p=1)
    dm = torch.cdist(x[:3], x[3:7], p=float('inf'))
report(hist=hist, recall1=recall1, sim=sim[:3], d1=d1[0], dm=dm, prelu=model.net[1].weight, tmd=F.triplet_margin_with_distance_loss(e[:3], e[3:6], e[6:9], distance_function=nn.PairwiseDistance(), margin=1.0))
