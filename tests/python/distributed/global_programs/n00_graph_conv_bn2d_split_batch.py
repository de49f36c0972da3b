import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(20)
net = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(),
                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3))
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)

class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss

step = Step()
rng = np.random.default_rng(20)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 2, 5, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 4), placement=P, sbp=S(0))
    losses.append(step(x, y).item())
bn = net[1]
print("RESULT", rank, json.dumps({"losses": losses, "rm": bn.running_mean.tolist(), "rv": bn.running_var.tolist(),
                                  "nbt": int(bn.num_batches_tracked.item())}))
