import json, os, tempfile, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
M = mf.placement("cpu", ranks=[[0, 1], [2, 3]] if world == 4 else [[0]])   # data x tensor mesh
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(51)
net = nn.Sequential(nn.Linear(4, 6, bias=False), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2)); net.to_global(M, (B, B))
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
step = Step()
rng = np.random.default_rng(51)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=M, sbp=(S(0), S(0)))
    y = mf.tensor(rng.integers(0, 2, 8), placement=M, sbp=(S(0), S(0)))
    losses.append(step(x, y).item())
net.eval()
with mf.no_grad():
    out = net(mf.ones(2, 4, placement=M, sbp=(B, B)))
print("RESULT", rank, json.dumps({"losses": losses, "rm": net[1].running_mean.tolist(), "out": out.tolist()}))
