import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Linear(3, 1); init_(net, 39)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x = mf.empty(4, 3)
    if rank == 0:
        rng = np.random.default_rng(39 + step)
        whole = mf.from_numpy(rng.standard_normal((8, 3)).astype(np.float32))
        dist.scatter(x, scatter_list=list(whole.chunk(world)), src=0)
    else:
        dist.scatter(x, src=0)
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
objs = [None]
dist.scatter_object_list(objs, [{"shard": r} for r in range(world)] if rank == 0 else None, src=0)
print("RESULT", rank, json.dumps({"x": x.sum().item(), "w": net.weight.tolist(), "obj": objs[0]}))
dist.destroy_process_group()
