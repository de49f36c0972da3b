import torch
import torch.nn as nn
import torch.nn.functional as F
class MF(nn.Module):
    def __init__(self, nu=6, ni=8, d=4):
        super().__init__(); self.u = nn.Embedding(nu, d); self.i = nn.Embedding(ni, d); self.ub = nn.Embedding(nu, 1); self.ib = nn.Embedding(ni, 1)
        self.mu = nn.Parameter(torch.tensor([3.0]))
    def forward(self, u, i):
        return (self.u(u) * self.i(i)).sum(-1) + self.ub(u).squeeze(-1) + self.ib(i).squeeze(-1) + self.mu
model = det(MF(), scale=0.3)
users = ints(6, 20); items = ints(8, 20, seed=5); ratings = (ints(5, 20, seed=6) + 1).float()
opt = torch.optim.SparseAdam(list(model.parameters())[:4], lr=0.05) if False else torch.optim.Adam(model.parameters(), lr=0.05)
hist = []
for _ in range(5):
    opt.zero_grad(); pred = model(users, items); loss = F.mse_loss(pred, ratings) + 1e-3 * (model.u.weight.pow(2).sum() + model.i.weight.pow(2).sum()); loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    scores = model.u.weight @ model.i.weight.T + model.ib.weight.T
    seen = torch.zeros(6, 8, dtype=torch.bool); seen[users, items] = True
    scores[seen] = -float("inf")
    top = scores.topk(3, dim=1).indices
    rel = torch.zeros(6, 8); rel[users, items] = ratings
    gains = torch.gather(rel, 1, top)
    discounts = 1.0 / torch.log2(torch.arange(2, 5).float())
    dcg = (gains * discounts).sum(1)
    pos = model(users[:5], items[:5]); neg = model(users[:5], items[5:10])
    bpr = -F.logsigmoid(pos - neg).mean()
    mrl = F.margin_ranking_loss(pos, neg, torch.ones(5), margin=0.5)
report(hist=hist, top=top, dcg=dcg, bpr=bpr, mrl=mrl, nseen=seen.sum())
