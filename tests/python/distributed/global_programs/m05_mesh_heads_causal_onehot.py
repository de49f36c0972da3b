import json, os, tempfile, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
M = mf.placement("cpu", ranks=[[0, 1], [2, 3]] if world == 4 else [[0]])   # data x tensor mesh
B, S = mf.sbp.broadcast, mf.sbp.split

class Tiny(nn.Module):
    def __init__(self, v=12, d=8, h=2):
        super().__init__()
        self.h = h
        self.emb = nn.Embedding(v, d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.head = nn.Linear(d, v, bias=False)
    def forward(self, ids):
        b, t = ids.shape
        x = self.emb(ids) + mf.arange(t).float().unsqueeze(-1) * 0.01
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        sh = lambda z: z.reshape(b, t, self.h, -1).transpose(1, 2)
        q, k, v = sh(q), sh(k), sh(v)
        s = (q @ k.transpose(-1, -2)) / math.sqrt(q.size(-1))
        s = s + mf.triu(mf.full((t, t), float("-inf")), diagonal=1)
        y = (s.softmax(-1) @ v).transpose(1, 2).reshape(b, t, -1)
        return self.head(x + self.o(y))

mf.manual_seed(55)
net = Tiny()
net.to_global(M, lambda n, p: {"o.weight": (B, S(1))}.get(n, (B, B)))
opt = mf.optim.SGD(net.parameters(), lr=0.2)
rng = np.random.default_rng(55)
losses = []
for _ in range(3):
    d = rng.integers(0, 12, (4, 6))
    ids = mf.tensor(d[:, :-1], placement=M, sbp=(S(0), B))
    tgt = F.one_hot(mf.tensor(d[:, 1:]), 12).float()           # local one-hot targets
    logits = net(ids)
    loss = -(tgt * logits.log_softmax(-1)).sum(-1).mean()
    opt.zero_grad(); loss.backward(); opt.step(); losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses}))
