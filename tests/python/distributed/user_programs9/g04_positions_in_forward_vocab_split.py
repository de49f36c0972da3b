import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(16, 8); self.pos = nn.Embedding(6, 8); self.ln = nn.LayerNorm(8)
    def forward(self, ids):
        t = ids.shape[1]
        pos = mf.arange(t, placement=ids.placement, sbp=B)
        mask = mf.ones(t, t, placement=ids.placement, sbp=B).tril()
        h = self.ln(self.tok(ids) + self.pos(pos))
        att = (h @ h.transpose(1, 2)).masked_fill(mask == 0, float("-inf")).softmax(-1)
        return (att @ h) @ self.tok.weight.t()
lm = LM(); init_(lm, 104)
lm.to_global(P, B)
lm.tok.weight = nn.Parameter(lm.tok.weight.to_global(P, S(0)))
opt = mf.optim.Adam(lm.parameters(), lr=1e-2)
rng = np.random.default_rng(104)
losses = []
for _ in range(3):
    ids = mf.tensor(rng.integers(0, 16, (2, 6)), placement=P, sbp=B)
    logits = lm(ids)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, 16), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step(); losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses}))
