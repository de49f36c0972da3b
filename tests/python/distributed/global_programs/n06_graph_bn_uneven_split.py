import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(26)
net = nn.Sequential(nn.Linear(3, 4, bias=False), nn.BatchNorm1d(4, momentum=None), nn.ReLU(), nn.Linear(4, 2)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.mse_loss(self.net(x), y); loss.backward(); return loss
step = Step()
rng = np.random.default_rng(26)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((7, 3)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.standard_normal((7, 2)).astype(np.float32), placement=P, sbp=S(0))
    losses.append(step(x, y).item())
print("RESULT", rank, json.dumps({"losses": losses, "rm": net[1].running_mean.tolist(), "rv": net[1].running_var.tolist()}))
