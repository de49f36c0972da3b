import torch
import torch.nn as nn


def emb_sz_rule(n_cat):
    return min(600, round(1.6 * n_cat ** 0.56))


class TabularModel(nn.Module):
    def __init__(self, cards, n_cont):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(c, emb_sz_rule(c)) for c in cards])
        n_emb = sum(e.embedding_dim for e in self.embeds)
        self.emb_drop = nn.Dropout(0.0)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        self.layers = nn.Sequential(nn.Linear(n_emb + n_cont, 8), nn.ReLU(inplace=True), nn.BatchNorm1d(8), nn.Linear(8, 2))

    def forward(self, x_cat, x_cont):
        x = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embeds)], 1)
        x = self.emb_drop(x)
        x = torch.cat([x, self.bn_cont(x_cont)], 1)
        return self.layers(x)


m = det(TabularModel([5, 12, 3], 3))
xc = ints(3, 6, 3)
xn = data(6, 3, seed=4)
opt = torch.optim.Adam(m.parameters(), lr=3e-3, betas=(0.9, 0.99), eps=1e-5)
losses = []
for _ in range(3):
    l = nn.functional.cross_entropy(m(xc, xn), torch.tensor([0, 1, 1, 0, 1, 0]))
    opt.zero_grad()
    l.backward()
    opt.step()
    losses.append(l.item())
report(sz=[emb_sz_rule(c) for c in (5, 12, 3, 1000)], losses=losses, out=m.eval()(xc, xn))
