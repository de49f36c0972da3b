import torch
import torch.nn as nn
import torch.nn.functional as F


class TransE(nn.Module):
    def __init__(self, n_ent, n_rel, d=6, margin=1.0):
        super().__init__()
        self.ent = nn.Embedding(n_ent, d)
        self.rel = nn.Embedding(n_rel, d)
        self.margin = margin

    def score(self, h, r, t):
        return (self.ent(h) + self.rel(r) - self.ent(t)).norm(p=1, dim=-1)

    def forward(self, pos, neg):
        return F.relu(self.margin + self.score(*pos.t()) - self.score(*neg.t())).mean()


class DistMult(nn.Module):
    def __init__(self, n_ent, n_rel, d=6):
        super().__init__()
        self.E = nn.Parameter(torch.zeros(n_ent, d))
        self.R = nn.Parameter(torch.zeros(n_rel, d))

    def forward(self, h, r):
        return (self.E[h] * self.R[r]) @ self.E.t()


kg = det(TransE(7, 3), scale=0.5)
pos = torch.tensor([[0, 0, 1], [1, 1, 2], [3, 2, 4], [5, 0, 6]])
neg = pos.clone()
neg[:, 2] = torch.tensor([3, 0, 6, 2])
opt = torch.optim.SGD(kg.parameters(), lr=0.1)
hist = []
for _ in range(3):
    loss = kg(pos, neg)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        kg.ent.weight.div_(kg.ent.weight.norm(dim=1, keepdim=True))
    hist.append(loss.item())
dm = det(DistMult(7, 3), seed=5)
scores = dm(pos[:, 0], pos[:, 1])
bce = F.binary_cross_entropy_with_logits(scores, F.one_hot(pos[:, 2], 7).float())
bce.backward()
ranks = (scores > scores.gather(1, pos[:, 2:3])).sum(1) + 1
report(hist=hist, norms=kg.ent.weight.norm(dim=1), bce=bce, ranks=ranks, mrr=(1.0 / ranks.float()).mean(),
       gR=dm.R.grad.abs().sum(1))
