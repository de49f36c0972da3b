import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader
class TabularModel(nn.Module):
    def __init__(self, emb_szs, n_cont, out_sz, layers, p=0.0):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in emb_szs])
        self.emb_drop = nn.Dropout(p)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        layerlist = []
        n_emb = sum(nf for ni, nf in emb_szs)
        n_in = n_emb + n_cont
        for i in layers:
            layerlist.append(nn.Linear(n_in, i)); layerlist.append(nn.ReLU(inplace=True)); layerlist.append(nn.BatchNorm1d(i)); layerlist.append(nn.Dropout(p))
            n_in = i
        layerlist.append(nn.Linear(layers[-1], out_sz))
        self.layers = nn.Sequential(*layerlist)
    def forward(self, x_cat, x_cont):
        embeddings = []
        for i, e in enumerate(self.embeds):
            embeddings.append(e(x_cat[:, i]))
        x = torch.cat(embeddings, 1)
        x = self.emb_drop(x)
        x_cont = self.bn_cont(x_cont)
        x = torch.cat([x, x_cont], 1)
        return self.layers(x)
rs = np.random.RandomState(0)
cats = np.stack([rs.randint(0, 5, 32), rs.randint(0, 3, 32), rs.randint(0, 7, 32)], 1)
conts = rs.randn(32, 4).astype(np.float32)
y = ((conts[:, 0] + cats[:, 1]) > 1).astype(np.float32)
cat_t = torch.tensor(cats, dtype=torch.int64); cont_t = torch.tensor(conts, dtype=torch.float); y_t = torch.tensor(y).reshape(-1, 1)
emb_szs = [(len(np.unique(cats[:, i])), min(50, (len(np.unique(cats[:, i])) + 1) // 2)) for i in range(3)]
model = det(TabularModel(emb_szs, 4, 1, [8, 6]))
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
dl = DataLoader(TensorDataset(cat_t, cont_t, y_t), batch_size=8, shuffle=False)
hist = []
for epoch in range(3):
    tot = 0.0
    for xc, xn, yy in dl:
        opt.zero_grad(); loss = crit(model(xc, xn), yy); loss.backward(); opt.step(); tot += loss.item() * len(yy)
    hist.append(tot / len(dl.dataset))
model.eval()
with torch.no_grad():
    p = torch.sigmoid(model(cat_t, cont_t)).squeeze()
order = torch.argsort(p, descending=True)
ranks = torch.empty_like(order); ranks[order] = torch.arange(len(p))
pos = y_t.squeeze() == 1
auc = ((ranks[~pos].float().mean() - ranks[pos].float().mean()) / len(p)).item()
report(emb_szs=emb_szs, hist=hist, p=p, acc=((p > 0.5).float() == y_t.squeeze()).float().mean(), auc=auc, rm=model.bn_cont.running_mean, nbt=model.bn_cont.num_batches_tracked)
