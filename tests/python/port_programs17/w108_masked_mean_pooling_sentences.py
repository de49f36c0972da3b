import torch
import torch.nn.functional as F

tok = data(3, 5, 4, seed=1)
mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]])
m = mask.unsqueeze(-1).expand(tok.size()).float()
mean = torch.sum(tok * m, 1) / torch.clamp(m.sum(1), min=1e-9)
mx = tok.masked_fill(m == 0, -1e9).max(1).values
cls = tok[:, 0]
emb = F.normalize(mean, p=2, dim=1)
sim = emb @ emb.T
best = sim.fill_diagonal_(-1).argmax(1)
report(mean=mean, mx=mx, cls=cls, sim=sim, best=best)
