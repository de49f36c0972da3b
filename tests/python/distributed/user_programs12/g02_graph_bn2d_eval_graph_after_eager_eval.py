import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(102)
net = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.Dropout2d(0.2),
                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=5e-3)
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
step = Step()
rng = np.random.default_rng(102)
xs = rng.standard_normal((4, 6, 2, 5, 5)).astype(np.float32)
ys = rng.integers(0, 2, (4, 6))
losses = []
for i in range(3):
    losses.append(step(mf.tensor(xs[i], placement=P, sbp=S(0)), mf.tensor(ys[i], placement=P, sbp=S(0))).item())
net.eval()
with mf.no_grad():
    xe = mf.tensor(xs[3], placement=P, sbp=S(0))
    eager_eval = net(xe)
    acc = (eager_eval.argmax(1) == mf.tensor(ys[3], placement=P, sbp=S(0))).float().mean().item()
net.train()
losses.append(step(mf.tensor(xs[3], placement=P, sbp=S(0)), mf.tensor(ys[3], placement=P, sbp=S(0))).item())
print("RESULT", rank, json.dumps({"losses": losses, "eval_sum": eager_eval.sum().item(), "acc": acc,
                                  "rv": net[1].running_var.tolist()}))
