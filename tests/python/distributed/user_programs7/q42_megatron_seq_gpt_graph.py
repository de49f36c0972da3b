import json, math
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
S, B = mf.sbp.split, mf.sbp.broadcast

class Attn(nn.Module):
    def __init__(self, d=16, h=4):
        super().__init__()
        self.h = h
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.c_attn(x).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, self.h, c // self.h).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).reshape(b, t, c))

class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(20, 16)
        self.pos = nn.Embedding(8, 16)
        self.attn = Attn()
        self.ln = nn.LayerNorm(16)
        self.head = nn.Linear(16, 20, bias=False)
    def forward(self, idx):
        t = idx.size(1)
        pos = mf.arange(t, device=idx.device).unsqueeze(0)
        x = self.tok(idx) + self.pos(pos)
        x = x + self.attn(self.ln(x))
        return self.head(self.ln(x))

mf.manual_seed(42)
lm = LM()
lm.to_global(mesh, B)
opt = mf.optim.AdamW(lm.parameters(), lr=3e-3)

class Train(nn.Graph):
    def __init__(self):
        super().__init__()
        self.lm = lm
        self.add_optimizer(opt)
    def build(self, idx, tgt):
        logits = self.lm(idx)
        loss = F.cross_entropy(logits.view(-1, 20), tgt.view(-1))
        loss.backward()
        return loss

step = Train()
rng = np.random.default_rng(42)
seq = rng.integers(0, 20, (4, 9))
idx = mf.tensor(seq[:, :-1], placement=mesh, sbp=S(0)); tgt = mf.tensor(seq[:, 1:], placement=mesh, sbp=S(0))
losses = [step(idx, tgt).item() for _ in range(3)]
print("RESULT", json.dumps(losses))
