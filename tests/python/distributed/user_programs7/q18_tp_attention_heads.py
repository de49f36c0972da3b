import json, math
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
S, B = mf.sbp.split, mf.sbp.broadcast

class ParallelAttention(nn.Module):
    def __init__(self, d=16, heads=4):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def forward(self, x, causal=True):
        b, t, d = x.shape
        q = self.q(x).view(b, t, self.heads, self.hd).permute(0, 2, 1, 3)
        k = self.k(x).view(b, t, self.heads, self.hd).permute(0, 2, 1, 3)
        v = self.v(x).view(b, t, self.heads, self.hd).permute(0, 2, 1, 3)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.hd)
        if causal:
            mask = mf.ones(t, t, dtype=mf.bool).tril()
            scores = scores.masked_fill(~mask, -1e9)
        p = scores.softmax(-1)
        ctx = (p @ v).permute(0, 2, 1, 3).reshape(b, t, d)
        return self.o(ctx)

mf.manual_seed(18)
attn = ParallelAttention()
col = {"q.weight", "q.bias", "k.weight", "k.bias", "v.weight", "v.bias"}
attn.to_global(mesh, lambda n, p: S(0) if n in col else (S(1) if n == "o.weight" else B))
opt = mf.optim.SGD(attn.parameters(), lr=0.1)
rng = np.random.default_rng(18)
x = mf.tensor(rng.standard_normal((2, 5, 16)).astype(np.float32), placement=mesh, sbp=B)
losses = []
for _ in range(3):
    y = attn(x)
    loss = (y ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
with mf.no_grad():
    y2 = F.scaled_dot_product_attention(x.unsqueeze(1), x.unsqueeze(1), x.unsqueeze(1), is_causal=True)
print("RESULT", json.dumps({"losses": losses, "sdpa": y2.sum().item()}))
