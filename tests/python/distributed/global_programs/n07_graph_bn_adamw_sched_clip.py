import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(27)
net = nn.Sequential(nn.Conv2d(1, 3, 3, bias=False), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(12, 2)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)
sch = mf.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt, lr_sch=sch)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward()
        nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
        return loss
step = Step()
rng = np.random.default_rng(27)
losses = []
for _ in range(4):
    x = mf.tensor(rng.standard_normal((4, 1, 4, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0))
    losses.append(step(x, y).item())
print("RESULT", rank, json.dumps({"losses": losses, "lr": opt.param_groups[0]["lr"], "rv": net[1].running_var.tolist()}))
