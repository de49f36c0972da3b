import torch
import torch.nn as nn
# TOL 1e-2
# the bias before BatchNorm has a gradient that is 0 but for rounding, which Adam scales to lr: values agree to lr


class Tab(nn.Module):
    def __init__(self, cards=(5, 3), dims=(3, 2), n_cont=4):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, d) for c, d in zip(cards, dims)])
        self.bn_cont = nn.BatchNorm1d(n_cont)
        self.mlp = nn.Sequential(nn.Linear(sum(dims) + n_cont, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.0), nn.Linear(8, 1))

    def forward(self, xc, xn):
        e = torch.cat([emb(xc[:, i]) for i, emb in enumerate(self.embs)], 1)
        return self.mlp(torch.cat([e, self.bn_cont(xn)], 1)).squeeze(-1)


m = det(Tab(), scale=0.3)
xc = torch.stack([ints(5, 10), ints(3, 10, seed=4)], 1)
xn = data(10, 4)
y = (data(10, seed=6) > 0).float()
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(1.5))
ls = []
for _ in range(4):
    opt.zero_grad()
    l = crit(m(xc, xn), y)
    l.backward()
    opt.step()
    ls.append(l.item())
m.eval()
p = torch.sigmoid(m(xc, xn))
acc = ((p > 0.5).float() == y).float().mean()
report(ls=ls, p=p, acc=acc, rm=m.bn_cont.running_mean)
