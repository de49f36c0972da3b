import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, batch_first=True); self.fc = nn.Linear(4, 2)
    def forward(self, x):
        h = x.new_zeros(1, x.size(0), 4)
        y, _ = self.gru(x, h)
        gate = mf.full_like(y[..., :1], 0.5)
        scale = mf.ones_like(y) * 2
        return self.fc(y * gate * scale).mean(1)
net = Net(); init_(net, 48)
net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(48)
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 3, 3)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
