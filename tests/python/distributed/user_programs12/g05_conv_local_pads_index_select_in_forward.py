import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 4, 3)
        self.bn = nn.BatchNorm1d(4)
        self.head = nn.Linear(4 * 6, 2)
    def forward(self, x):
        b, c, t = x.shape
        left = mf.zeros(b, c, 1)                              # local padding made here
        x = mf.cat([left, x, mf.ones(b, c, 1) * 0.5], dim=2)
        h = F.relu(self.bn(self.conv(x)))
        keep = mf.arange(0, h.shape[2], 1)                    # local indices
        h = h.index_select(2, keep.flip(0)) + mf.ones_like(h) * 0.1
        w = mf.linspace(0.5, 1.5, h.shape[2])                 # local per-position weights
        return self.head((h * w).flatten(1))

mf.manual_seed(105)
net = Net(); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(105)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 3, 6)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 6), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
net.eval()
with mf.no_grad():
    xe = mf.tensor(rng.standard_normal((4, 3, 6)).astype(np.float32), placement=P, sbp=S(0))
    pred = net(xe).argmax(1)
print("RESULT", rank, json.dumps({"losses": losses, "pred": pred.tolist(), "rm": net.bn.running_mean.tolist()}))
