import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Conv2d(1, 3, 3, padding=1, bias=False), nn.BatchNorm2d(3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(3, 2))
init_(net, 47)
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
class Train(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        w = mf.tensor([1.0, 2.0])
        loss = F.cross_entropy(self.net(x), y, weight=w); loss.backward(); return loss
class Eval(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net
    def build(self, x):
        return self.net(x)
rng = np.random.default_rng(47)
train, ev = Train(), Eval()
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 1, 5, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0))
    losses.append(train(x, y).item())
net.eval()
out = ev(mf.tensor(rng.standard_normal((2, 1, 5, 5)).astype(np.float32), placement=P, sbp=S(0)))
print("RESULT", rank, json.dumps({"losses": losses, "out": out.tolist(), "rm": net[1].running_mean.tolist()}))
