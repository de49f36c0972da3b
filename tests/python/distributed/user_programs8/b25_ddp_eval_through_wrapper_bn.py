import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 1))
rng = np.random.default_rng(18)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
X = rng.standard_normal((2, 2, 6, 3)).astype(np.float32)
outs = []
for epoch in range(2):
    model.train()
    x = mf.from_numpy(X[epoch, rank])
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with mf.no_grad():
        outs.append(model(mf.ones(2, 3)).flatten().tolist())
print("RESULT", rank, json.dumps({"outs": outs, "rm": net[1].running_mean.tolist()}))
dist.destroy_process_group()
