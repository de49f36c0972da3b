import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
S, B = mf.sbp.split, mf.sbp.broadcast

class LM(nn.Module):
    def __init__(self, vocab=24, d=8, ctx=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(mf.zeros(ctx, d))
        self.mix = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
    def forward(self, ids):
        t = ids.shape[-1]
        pos_ids = mf.arange(t)
        h = self.embed(ids) + self.pos[pos_ids]
        causal = mf.tril(mf.ones(t, t)) / mf.arange(1, t + 1).float().unsqueeze(1)
        h = causal @ h
        return self.lm_head(F.relu(self.mix(h)))

mf.manual_seed(30)
lm = LM()
lm.to_global(mesh, lambda n, p: S(0) if n in ("embed.weight", "lm_head.weight") else B)
opt = mf.optim.Adam(lm.parameters(), lr=1e-2)
rng = np.random.default_rng(30)
seq = rng.integers(0, 24, (3, 7))
ids = mf.tensor(seq[:, :-1], placement=mesh, sbp=B)
tgt = mf.tensor(seq[:, 1:], placement=mesh, sbp=B)
losses = []
for _ in range(3):
    logits = lm(ids)
    loss = F.cross_entropy(logits.reshape(-1, 24), tgt.reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
with mf.no_grad():
    nxt = lm(ids)[:, -1].argmax(-1).tolist()
print("RESULT", json.dumps({"losses": losses, "next": nxt}))
