import torch
import torch.nn as nn
import torch.nn.functional as F
class SGNS(nn.Module):
    def __init__(self, V=30, D=8):
        super().__init__()
        self.in_embed = nn.Embedding(V, D)
        self.out_embed = nn.Embedding(V, D)
        self.in_embed.weight.data.uniform_(-0.5 / D, 0.5 / D)
        self.out_embed.weight.data.zero_()
    def forward(self, center, context, negatives):
        v = self.in_embed(center)
        u = self.out_embed(context)
        n = self.out_embed(negatives)
        pos = F.logsigmoid((v * u).sum(1))
        neg = F.logsigmoid(-torch.bmm(n, v.unsqueeze(2)).squeeze(2)).sum(1)
        return -(pos + neg).mean()
model = det(SGNS(), 0, 0.1)
counts = torch.tensor([float(30 - i) for i in range(30)])
unigram = counts ** 0.75
unigram /= unigram.sum()
center, context = ints(30, 16), ints(30, 16, seed=3)
negatives = ints(30, 16, 5, seed=4)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
L = []
for _ in range(5):
    loss = model(center, context, negatives)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
emb = F.normalize(model.in_embed.weight, dim=1)
sim = emb @ emb[3]
top = sim.topk(4).indices
report(L=L, unigram=unigram[:4], top=top, sim=sim[:5])
