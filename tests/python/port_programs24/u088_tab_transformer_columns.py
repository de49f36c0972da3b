import torch
import torch.nn as nn


class TabTransformer(nn.Module):
    def __init__(self, cards, n_cont, d=8):
        super().__init__()
        self.offsets = nn.Parameter(torch.tensor([0] + cards[:-1]).cumsum(0), requires_grad=False)
        self.emb = nn.Embedding(sum(cards), d)
        self.col = nn.Parameter(torch.zeros(len(cards), d))
        layer = nn.TransformerEncoderLayer(d, 2, 16, dropout=0.0, batch_first=True, activation="gelu")
        self.tf = nn.TransformerEncoder(layer, 1)
        self.norm = nn.LayerNorm(n_cont)
        self.mlp = nn.Sequential(nn.Linear(len(cards) * d + n_cont, 8), nn.SELU(), nn.Linear(8, 1))

    def forward(self, cat, cont):
        tok = self.emb(cat + self.offsets) + self.col
        h = self.tf(tok).flatten(1)
        return self.mlp(torch.cat([h, self.norm(cont)], 1)).squeeze(1)


model = det(TabTransformer([4, 3, 5], 2))
cat = torch.stack([ints(4, 10, seed=1), ints(3, 10, seed=2), ints(5, 10, seed=3)], 1)
cont = data(10, 2)
y = data(10, seed=9)
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.01)
hist = []
for _ in range(4):
    loss = nn.functional.smooth_l1_loss(model(cat, cont), y, beta=0.5)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
report(offsets=model.offsets, hist=hist, n_train=sum(p.numel() for p in model.parameters() if p.requires_grad), off_grad=model.offsets.grad is None)
