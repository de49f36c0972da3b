import torch
import torch.nn as nn
import torch.nn.functional as F
class VQ(nn.Module):
    def __init__(self, K=6, D=3, beta=0.25, decay=0.9):
        super().__init__()
        self.embedding = nn.Embedding(K, D); self.beta = beta; self.decay = decay
        self.register_buffer("cluster_size", torch.zeros(K)); self.register_buffer("embed_avg", torch.zeros(K, D))
    def forward(self, z):
        flat = z.reshape(-1, z.size(-1))
        d = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ self.embedding.weight.t() + self.embedding.weight.pow(2).sum(1)
        idx = d.argmin(1)
        q = self.embedding(idx).view_as(z)
        loss = F.mse_loss(q, z.detach()) + self.beta * F.mse_loss(z, q.detach())
        q = z + (q - z).detach()
        if self.training:
            with torch.no_grad():
                onehot = F.one_hot(idx, self.embedding.num_embeddings).type(flat.dtype)
                self.cluster_size.mul_(self.decay).add_(onehot.sum(0), alpha=1 - self.decay)
                self.embed_avg.mul_(self.decay).add_(onehot.t() @ flat, alpha=1 - self.decay)
        perplexity = torch.exp(-(F.one_hot(idx, 6).float().mean(0) * torch.log(F.one_hot(idx, 6).float().mean(0) + 1e-10)).sum())
        return q, loss, idx, perplexity
enc = det(nn.Linear(4, 3), scale=0.5); vq = det(VQ(), seed=1, scale=0.8); dec = det(nn.Linear(3, 4), seed=2, scale=0.5)
x = data(10, 4)
opt = torch.optim.Adam(list(enc.parameters()) + list(vq.parameters()) + list(dec.parameters()), lr=1e-2)
hist = []
for _ in range(5):
    opt.zero_grad(); z = enc(x); q, vql, idx, ppl = vq(z); rec = F.mse_loss(dec(q), x); (rec + vql).backward(); opt.step(); hist.append([rec.item(), vql.item(), ppl.item()])
y = torch.tensor([[1.0, -1.0, 0.5]])
soft = F.gumbel_softmax(y.repeat(4, 1), tau=0.5, hard=True)
report(hist=hist, idx=idx, cs=vq.cluster_size, ea=vq.embed_avg[0], onehot=bool(((soft == 0) | (soft == 1)).all()), rows=soft.sum(1), encg=enc.weight.grad is not None)
