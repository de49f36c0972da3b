import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
pairs = [dist.new_group([0, 2]), dist.new_group([1, 3])]
mine = pairs[rank % 2]
net = nn.Sequential(nn.Linear(2, 3, bias=False), nn.BatchNorm1d(3), nn.Linear(3, 1))
g = np.random.default_rng(5 + rank % 2)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net, process_group=mine)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(50 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 2)).astype(np.float32))
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
stat = mf.tensor([loss.item()])
dist.all_reduce(stat, op=dist.ReduceOp.MAX, group=mine)
print("RESULT", rank, json.dumps({"w": [round(p.sum().item(), 5) for p in net.parameters()], "rm": net[1].running_mean.tolist(), "max": stat.item()}))
dist.destroy_process_group()
