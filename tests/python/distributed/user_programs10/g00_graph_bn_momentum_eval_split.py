import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Linear(4, 8, bias=False), nn.BatchNorm1d(8, momentum=0.2), nn.SiLU(), nn.Linear(8, 3)); init_(net, 40)
net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
class Infer(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net
    def build(self, x):
        return self.net(x).softmax(-1)
rng = np.random.default_rng(40)
step, infer = Step(), Infer()
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 6), placement=P, sbp=S(0))
    losses.append(step(x, y).item())
net.eval()
probs = infer(mf.tensor(rng.standard_normal((4, 4)).astype(np.float32), placement=P, sbp=S(0)))
print("RESULT", rank, json.dumps({"losses": losses, "probs": probs.tolist(), "rv": net[1].running_var.tolist()}))
