import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(32)
net = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.BatchNorm1d(4), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(4, 2))
net.to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(32)
train_loss = []
for epoch in range(3):
    net.train()
    x = mf.tensor(rng.standard_normal((6, 2, 10)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 2, 6), placement=mesh, sbp=mf.sbp.split(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    train_loss.append(loss.item())
net.eval()
with mf.no_grad():
    xv = mf.tensor(rng.standard_normal((4, 2, 10)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    val = net(xv).softmax(-1)[:, 1].tolist()
sd = net.state_dict()
print("RESULT", json.dumps({"train": train_loss, "val": val, "rv": sd["1.running_var"].tolist(), "nbt": sd["1.num_batches_tracked"].item()}))
