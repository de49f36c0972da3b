import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class GNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.msg = nn.Linear(4, 4)
        self.upd = nn.Linear(8, 4)
    def forward(self, h, src, dst):
        m = self.msg(h[src])
        agg = mf.zeros(h.size(0), 4).index_add(0, dst, m)
        deg = mf.zeros(h.size(0)).scatter_add(0, dst, mf.ones(dst.size(0)))
        agg = agg / deg.clamp(min=1).unsqueeze(1)
        return self.upd(mf.cat([h, agg], 1)).relu()

mf.manual_seed(14)
net = GNN(); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(14)
src = mf.tensor(rng.integers(0, 6, 10)); dst = mf.tensor(rng.integers(0, 6, 10))
losses = []
for _ in range(3):
    h = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0))
    loss = net(h, src, dst).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "msg": net.msg.weight.sum().item()}))
