import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(23)
net = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.5)
rng = np.random.default_rng(23)
def batch():
    return (mf.tensor(rng.standard_normal((6, 3)).astype(np.float32), placement=P, sbp=S(0)),
            mf.tensor(rng.standard_normal((6, 1)).astype(np.float32), placement=P, sbp=S(0)))
losses = []
for _ in range(2):                     # eager steps, grads left set after the last
    x, y = batch()
    opt.zero_grad(); loss = F.mse_loss(net(x), y); loss.backward(); opt.step(); losses.append(loss.item())
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.mse_loss(self.net(x), y); loss.backward(); return loss
step = Step()
for _ in range(2):
    losses.append(step(*batch()).item())
x, y = batch()
opt.zero_grad(); loss = F.mse_loss(net(x), y); loss.backward(); opt.step(); losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "rm": net[1].running_mean.tolist(), "w": net[0].weight.sum().item()}))
