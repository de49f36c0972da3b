import json, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Attn(nn.Module):
    def __init__(self, d=8, h=2):
        super().__init__()
        self.h = h
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.o = nn.Linear(d, d)
    def forward(self, x):
        b, t, d = x.shape
        sh = lambda z: z.view(b, t, self.h, d // self.h).transpose(1, 2)
        q, k, v = sh(self.q(x)), sh(self.k(x)), sh(self.v(x))
        s = q @ k.transpose(-1, -2) / math.sqrt(d // self.h)
        causal = mf.ones(t, t).tril().bool()
        s = s.masked_fill(~causal, -1e9)
        y = (s.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d)
        return self.o(y)

mf.manual_seed(2)
m = Attn()
plan = {"q.weight": S(0), "q.bias": S(0), "k.weight": S(0), "k.bias": S(0), "v.weight": S(0), "v.bias": S(0), "o.weight": S(1)}
m.to_global(P, lambda n, p: plan.get(n, B))
opt = mf.optim.SGD(m.parameters(), lr=0.1)
rng = np.random.default_rng(2)
x = mf.tensor(rng.standard_normal((2, 5, 8)).astype(np.float32), placement=P, sbp=B)
losses = []
for _ in range(3):
    loss = m(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "first_row": m(x)[0, 0].tolist()}))
