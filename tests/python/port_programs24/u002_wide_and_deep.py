import torch
import torch.nn as nn
import torch.nn.functional as F


class WideDeep(nn.Module):
    def __init__(self, n_wide, cards, emb_dim, n_cont):
        super().__init__()
        self.wide = nn.Linear(n_wide, 1)
        self.embs = nn.ModuleList(nn.Embedding(c, emb_dim) for c in cards)
        self.deep = nn.Sequential(nn.Linear(emb_dim * len(cards) + n_cont, 12), nn.ReLU(),
                                  nn.Linear(12, 6), nn.ReLU(), nn.Linear(6, 1))

    def forward(self, x_wide, x_cat, x_cont):
        e = torch.cat([m(x_cat[:, i]) for i, m in enumerate(self.embs)], 1)
        deep = self.deep(torch.cat([e, x_cont], 1))
        return torch.sigmoid(self.wide(x_wide) + deep).squeeze(-1)


# cross-product features by hand: one-hot of (a, b) pairs
a = ints(3, 8, seed=10)
b = ints(4, 8, seed=11)
cross = F.one_hot(a * 4 + b, num_classes=12).float()
x_cat = torch.stack([a, b], 1)
x_cont = data(8, 2)
y = (ints(2, 8, seed=12)).float()
model = det(WideDeep(12, [3, 4], 3, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
hist = []
for epoch in range(4):
    p = model(cross, x_cat, x_cont)
    loss = F.binary_cross_entropy(p, y)
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append(round(loss.item(), 5))
with torch.no_grad():
    p = model(cross, x_cat, x_cont)
acc = ((p > 0.5).float() == y).float().mean()
report(cross_sum=cross.sum(0), hist=hist, p=p, acc=acc.item())
