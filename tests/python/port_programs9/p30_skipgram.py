import torch
import torch.nn as nn
import torch.nn.functional as F
class SkipGram(nn.Module):
    def __init__(self, vocab_size, emb_dim):
        super().__init__()
        self.in_embed = nn.Embedding(vocab_size, emb_dim, sparse=True)
        self.out_embed = nn.Embedding(vocab_size, emb_dim, sparse=True)
        initrange = 0.5 / emb_dim
        self.in_embed.weight.data.uniform_(-initrange, initrange)
        self.out_embed.weight.data.uniform_(-0, 0)
    def forward(self, center, context, negatives):
        v = self.in_embed(center)
        u = self.out_embed(context)
        un = self.out_embed(negatives)
        pos = F.logsigmoid(torch.sum(v * u, dim=1))
        neg = F.logsigmoid(-torch.bmm(un, v.unsqueeze(2)).squeeze(2)).sum(1)
        return -(pos + neg).mean()
m = det(SkipGram(20, 6), 0, 0.3)
opt = torch.optim.SparseAdam(list(m.parameters()), lr=0.05)
center = ints(20, 8); context = ints(20, 8, seed=5); negatives = ints(20, 8, 3, seed=6)
losses = []
for _ in range(4):
    opt.zero_grad(); loss = m(center, context, negatives); loss.backward(); opt.step(); losses.append(loss.item())
emb = F.normalize(m.in_embed.weight.detach(), dim=1)
sim = emb @ emb[3]
nearest = sim.topk(4).indices
report(losses=losses, nearest=nearest, sim=sim[:5])
