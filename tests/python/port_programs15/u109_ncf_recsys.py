import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader


class NeuMF(nn.Module):
    def __init__(self, users, items, k=4):
        super().__init__()
        self.ug, self.ig = nn.Embedding(users, k), nn.Embedding(items, k)
        self.um, self.im = nn.Embedding(users, k), nn.Embedding(items, k)
        self.mlp = nn.Sequential(nn.Linear(2 * k, 8), nn.ReLU(), nn.Linear(8, 4), nn.ReLU())
        self.out = nn.Linear(k + 4, 1)
        self.user_bias = nn.Embedding(users, 1)
        nn.init.zeros_(self.user_bias.weight)

    def forward(self, u, i):
        gmf = self.ug(u) * self.ig(i)
        mlp = self.mlp(torch.cat([self.um(u), self.im(i)], -1))
        return (self.out(torch.cat([gmf, mlp], -1)) + self.user_bias(u)).squeeze(-1)


users = torch.tensor([0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
items = torch.tensor([1, 3, 0, 2, 4, 1, 3, 0, 2, 4])
ratings = torch.tensor([1., 0., 1., 1., 0., 1., 0., 0., 1., 1.])
model = NeuMF(5, 5)
det(model)
nn.init.zeros_(model.user_bias.weight)
dl = DataLoader(TensorDataset(users, items, ratings), batch_size=4)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
hist = []
for ep in range(3):
    tot = 0
    for u, i, y in dl:
        loss = nn.BCEWithLogitsLoss()(model(u, i), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item()
    hist.append(tot)
with torch.no_grad():
    allscores = model(torch.arange(5).repeat_interleave(5), torch.arange(5).repeat(5)).view(5, 5)
    seen = torch.zeros(5, 5, dtype=torch.bool)
    seen[users, items] = True
    allscores[seen] = -float("inf")
    top2 = allscores.topk(2, dim=1).indices
hits = [(top2[u] == t).any().item() for u, t in [(0, 2), (1, 4), (2, 0)]]
report(hist=hist, top2=top2, hits=hits, nseen=int(seen.sum()))
