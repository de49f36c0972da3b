import json, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Enc(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.d = d
        self.inp = nn.Linear(3, d)
        self.layer = nn.TransformerEncoderLayer(d, 2, 16, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, 1)
    def forward(self, x):
        t = x.size(1)
        pos = mf.arange(t, dtype=mf.float32).unsqueeze(1)
        div = mf.exp(mf.arange(0, self.d, 2).float() * (-math.log(10000.0) / self.d))
        pe = mf.zeros(t, self.d)
        pe[:, 0::2] = mf.sin(pos * div)
        pe[:, 1::2] = mf.cos(pos * div)
        return self.out(self.layer(self.inp(x) + pe)).squeeze(-1)

mf.manual_seed(11)
m = Enc(); m.to_global(P, B)
opt = mf.optim.AdamW(m.parameters(), lr=1e-2)
rng = np.random.default_rng(11)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 5, 3)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.standard_normal((4, 5)).astype(np.float32), placement=P, sbp=S(0))
    loss = F.mse_loss(m(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses}))
