import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 5, batch_first=True); self.fc = nn.Linear(5, 2)
    def forward(self, x):
        h0 = mf.zeros(1, x.shape[0], 5)
        c0 = mf.zeros(1, x.shape[0], 5)
        y, _ = self.lstm(x, (h0, c0))
        return self.fc(y[:, -1])
net = Seq(); init_(net, 43)
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.2)
rng = np.random.default_rng(43)
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 6, 3)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
