import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(22)
net = nn.Sequential(nn.Linear(4, 6, bias=False), nn.BatchNorm1d(6, momentum=0.3), nn.Tanh(), nn.Linear(6, 3))
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.05)
class Train(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
class Eval(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net
    def build(self, x):
        return self.net(x).argmax(1)
rng = np.random.default_rng(22)
train, ev = Train(), Eval()
xs = rng.standard_normal((3, 8, 4)).astype(np.float32) + 2.0
ys = rng.integers(0, 3, (3, 8))
losses = [train(mf.tensor(xs[i], placement=P, sbp=S(0)), mf.tensor(ys[i], placement=P, sbp=S(0))).item() for i in range(3)]
net.eval()
xe = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32) + 2.0, placement=P, sbp=S(0))
pred = ev(xe)
with mf.no_grad():
    eager_pred = net(xe).argmax(1)
print("RESULT", rank, json.dumps({"losses": losses, "pred": pred.tolist(), "same": bool((pred == eager_pred).all().item()),
                                  "rm": net[1].running_mean.tolist()}))
