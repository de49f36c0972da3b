import torch
import torch.nn as nn
import torch.nn.functional as F


class TabNet(nn.Module):
    def __init__(self, cards, n_cont, out):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, min(4, (c + 1) // 2)) for c in cards])
        emb_dim = sum(e.embedding_dim for e in self.embs)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        self.layers = nn.Sequential(nn.Linear(emb_dim + n_cont, 16, bias=False), nn.ReLU(), nn.BatchNorm1d(16), nn.Dropout(0.0), nn.Linear(16, out))

    def forward(self, x_cat, x_cont):
        e = torch.cat([emb(x_cat[:, i]) for i, emb in enumerate(self.embs)], 1)
        return self.layers(torch.cat([e, self.bn_cont(x_cont)], 1))


cards = [5, 3, 8]
model = det(TabNet(cards, 2, 3))
x_cat = torch.stack([ints(c, 16, seed=i) for i, c in enumerate(cards)], 1)
x_cont = data(16, 2) * torch.tensor([100.0, 0.01])
y = ints(3, 16, seed=9)
w = 1.0 / torch.bincount(y, minlength=3).float().clamp(min=1)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.05)
for epoch in range(4):
    for idx in torch.arange(16).split(8):
        loss = F.cross_entropy(model(x_cat[idx], x_cont[idx]), y[idx], weight=w / w.sum())
        opt.zero_grad()
        loss.backward()
        opt.step()
model.eval()
with torch.no_grad():
    probs = model(x_cat, x_cont).softmax(1)
report(loss=loss.item(), probs=probs[:3], acc=(probs.argmax(1) == y).float().mean().item(), rm=model.bn_cont.running_mean,
       dims=[e.embedding_dim for e in model.embs])
