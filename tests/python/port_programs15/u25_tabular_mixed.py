import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


class Tabular(Dataset):
    def __init__(self, cats, conts, y):
        self.cats = torch.as_tensor(cats, dtype=torch.long)
        self.conts = torch.as_tensor(conts, dtype=torch.float32)
        self.y = torch.as_tensor(y, dtype=torch.float32).unsqueeze(1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.cats[i], self.conts[i], self.y[i]


class TabNet(nn.Module):
    def __init__(self, card, emb_dims, n_cont):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, d) for c, d in zip(card, emb_dims)])
        self.bn = nn.BatchNorm1d(n_cont)
        self.mlp = nn.Sequential(nn.Linear(sum(emb_dims) + n_cont, 16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 1))

    def forward(self, cats, conts):
        e = [emb(cats[:, i]) for i, emb in enumerate(self.embs)]
        return self.mlp(torch.cat(e + [self.bn(conts)], 1))


rs = np.random.RandomState(0)
cats = np.stack([rs.randint(0, 4, 20), rs.randint(0, 7, 20)], 1)
conts = rs.randn(20, 3).astype(np.float64)
y = (conts[:, 0] * 2 + cats[:, 0] - 1.5 > 0).astype(np.int32)
ds = Tabular(cats, conts, y)
dl = DataLoader(ds, batch_size=8, shuffle=False)
net = det(TabNet([4, 7], [2, 3], 3))
opt = torch.optim.Adam(net.parameters(), lr=0.02)
lossf = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.5]))
hist = []
for ep in range(3):
    tot = 0.0
    for c, x, t in dl:
        opt.zero_grad()
        l = lossf(net(c, x), t)
        l.backward()
        opt.step()
        tot += l.item() * len(t)
    hist.append(tot / len(ds))
net.eval()
with torch.no_grad():
    p = torch.sigmoid(net(ds.cats, ds.conts)).squeeze(1)
acc = ((p > 0.5).float() == ds.y.squeeze(1)).float().mean()
report(hist=hist, acc=acc, p=p[:5], item=[t.dtype for t in ds[0]], last_batch=len(list(dl)[-1][0]))
