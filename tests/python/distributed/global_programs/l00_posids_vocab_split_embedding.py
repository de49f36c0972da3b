import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class LM(nn.Module):
    def __init__(self, vocab=24, d=8, T=6):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(T, d)
        self.out = nn.Linear(d, vocab)
    def forward(self, ids):
        b, t = ids.shape
        pos = mf.arange(t).unsqueeze(0).expand(b, t)
        h = self.tok(ids) + self.pos(pos)
        return self.out(F.gelu(h))

mf.manual_seed(0)
m = LM()
m.to_global(P, B)
m.tok.weight = nn.Parameter(m.tok.weight.to_global(P, S(0)))  # vocabulary split
opt = mf.optim.Adam(m.parameters(), lr=1e-2)
rng = np.random.default_rng(0)
losses = []
for _ in range(3):
    d = rng.integers(0, 24, (4, 7))
    x = mf.tensor(d[:, :-1], placement=P, sbp=S(0))
    y = mf.tensor(d[:, 1:], placement=P, sbp=S(0))
    loss = F.cross_entropy(m(x).flatten(0, 1), y.flatten())
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "pos_w": m.pos.weight.sum().item()}))
