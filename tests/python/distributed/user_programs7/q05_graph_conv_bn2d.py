import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
placement = mf.placement("cpu", ranks=list(range(world)))
sbp = mf.sbp.split(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 4 * 4, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(x.flatten(1))

mf.manual_seed(5)
net = Net().to_global(placement, mf.sbp.broadcast)
opt = mf.optim.Adam(net.parameters(), lr=1e-2)

class Step(nn.Graph):
    def __init__(self):
        super().__init__()
        self.net = net
        self.add_optimizer(opt)

    def build(self, img, label):
        loss = F.cross_entropy(self.net(img), label)
        loss.backward()
        return loss

step = Step()
rng = np.random.default_rng(5)
imgs = rng.standard_normal((3, 6, 1, 8, 8)).astype(np.float32)
labels = rng.integers(0, 2, (3, 6))
losses = []
net.train()
for i in range(3):
    loss = step(mf.tensor(imgs[i], placement=placement, sbp=sbp), mf.tensor(labels[i], placement=placement, sbp=sbp))
    losses.append(loss.item())
net.eval()
with mf.no_grad():
    ev = net(mf.tensor(imgs[0], placement=placement, sbp=sbp))
print("RESULT", json.dumps({"losses": losses, "rm": net.bn.running_mean.tolist(), "rv": net.bn.running_var.tolist(),
                            "eval_sum": ev.sum().item()}))
