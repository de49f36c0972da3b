import torch
import torch.nn as nn
import torch.nn.functional as F
class LinearAttention(nn.Module):
    def __init__(self, d=8, h=2):
        super().__init__(); self.h = h; self.qkv = nn.Linear(d, 3 * d); self.o = nn.Linear(d, d)
    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, N, self.h, -1).transpose(1, 2) for t in (q, k, v))
        q = F.elu(q) + 1; k = F.elu(k) + 1
        kv = torch.einsum("bhnd,bhne->bhde", k, v)
        z = 1 / (torch.einsum("bhnd,bhd->bhn", q, k.sum(dim=2)) + 1e-6)
        out = torch.einsum("bhnd,bhde,bhn->bhne", q, kv, z)
        return self.o(out.transpose(1, 2).reshape(B, N, D))
class RelPosAttention(nn.Module):
    def __init__(self, d=8, max_rel=4):
        super().__init__(); self.q = nn.Linear(d, d); self.k = nn.Linear(d, d); self.rel = nn.Embedding(2 * max_rel + 1, 1); self.max_rel = max_rel
    def forward(self, x):
        N = x.size(1)
        pos = torch.arange(N)
        rel = (pos[None, :] - pos[:, None]).clamp(-self.max_rel, self.max_rel) + self.max_rel
        bias = self.rel(rel).squeeze(-1)
        s = torch.einsum("bid,bjd->bij", self.q(x), self.k(x)) / x.size(-1) ** 0.5 + bias
        return s.softmax(-1) @ x
x = data(2, 5, 8)
la = det(LinearAttention(), scale=0.3); ra = det(RelPosAttention(), seed=1, scale=0.3)
opt = torch.optim.Adam(list(la.parameters()) + list(ra.parameters()), lr=1e-2)
hist = []
for _ in range(4):
    opt.zero_grad(); y = ra(la(x)); loss = (y - x.roll(1, 1)).pow(2).mean(); loss.backward(); opt.step(); hist.append(loss.item())
e = [torch.einsum("i,i->", torch.arange(3.0), torch.arange(3.0)), torch.einsum("ij,jk->ik", torch.eye(2), torch.ones(2, 3)), torch.einsum("bi,bj->bij", torch.ones(2, 2), torch.arange(6.0).view(2, 3)).sum(0),
     torch.einsum("ijk->kji", torch.arange(8.0).view(2, 2, 2))[1], torch.einsum(torch.ones(2, 3), [0, 1], torch.ones(3), [1], [0]), torch.einsum("...i,...i->...", torch.ones(2, 3, 4), torch.ones(4)).shape, torch.einsum("i j , j -> i", torch.eye(2), torch.ones(2))]
report(hist=hist, y=y[0, 0], e=e)
