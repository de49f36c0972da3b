import torch
import torch.nn as nn
class TabNet(nn.Module):
    def __init__(self, cards, n_cont, emb_dims):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, d) for c, d in zip(cards, emb_dims)])
        self.emb_drop = nn.Dropout(0.1)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        n_in = sum(emb_dims) + n_cont
        self.layers = nn.Sequential(nn.Linear(n_in, 16), nn.ReLU(), nn.BatchNorm1d(16), nn.Linear(16, 1))
    def forward(self, x_cat, x_cont):
        x = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embs)], 1)
        x = self.emb_drop(x)
        x = torch.cat([x, self.bn_cont(x_cont)], 1)
        return self.layers(x).squeeze(1)
cards = [5, 3, 7]
emb_dims = [min(50, (c + 1) // 2) for c in cards]
model = det(TabNet(cards, 4, emb_dims))
x_cat = torch.stack([ints(c, 20, seed=i) for i, c in enumerate(cards)], 1)
x_cont = data(20, 4)
y = (data(20, seed=7) > 0.8).float()
pos_weight = (y == 0).sum() / (y == 1).sum()
crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-2)
model.emb_drop.p = 0.0
L = []
for ep in range(5):
    model.train()
    logit = model(x_cat, x_cont)
    loss = crit(logit, y)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
model.eval()
with torch.no_grad():
    prob = torch.sigmoid(model(x_cat, x_cont))
pred = (prob > 0.5).long()
tp = ((pred == 1) & (y == 1)).sum().item(); fp = ((pred == 1) & (y == 0)).sum().item(); fn = ((pred == 0) & (y == 1)).sum().item()
report(pw=pos_weight, L=L, prob=prob[:5], tp=tp, fp=fp, fn=fn, emb_dims=emb_dims, nb=model.bn_cont.num_batches_tracked)
