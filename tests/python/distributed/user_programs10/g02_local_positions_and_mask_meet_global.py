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
        self.tok = nn.Embedding(10, 6); self.pos = nn.Embedding(5, 6); self.out = nn.Linear(6, 10)
    def forward(self, ids):
        t = ids.shape[1]
        pos = mf.arange(t, device=ids.device)
        mask = mf.ones(t, t, device=ids.device).tril()
        h = self.tok(ids) + self.pos(pos)
        h = (mask / mask.sum(-1, keepdim=True)) @ h
        return self.out(h)
net = LM(); init_(net, 42)
net.to_global(P, B)
opt = mf.optim.AdamW(net.parameters(), lr=1e-2)
rng = np.random.default_rng(42)
for _ in range(3):
    ids = mf.tensor(rng.integers(0, 10, (4, 5)), placement=P, sbp=S(0))
    logits = net(ids)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, 10), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
