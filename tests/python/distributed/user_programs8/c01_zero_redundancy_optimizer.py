import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.optim import ZeroRedundancyOptimizer
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))
rng = np.random.default_rng(40)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
model = DDP(net)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=mf.optim.Adam, lr=0.01)
X = rng.standard_normal((4, 6, 4)).astype(np.float32)
losses = []
for i in range(4):
    x = mf.from_numpy(X[i, rank * 3:(rank + 1) * 3])
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
opt.consolidate_state_dict(to=0)
n_state = len(opt.state_dict()["state"]) if rank == 0 else -1
print("RESULT", rank, json.dumps({"losses": losses, "w": net[4].weight.tolist(), "n_state": n_state}))
dist.destroy_process_group()
