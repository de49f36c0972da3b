import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
from meshflow.distributed.optim import ZeroRedundancyOptimizer
pg = dist.new_group(list(range(world)))
net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2)); init_(net, 56)
model = DDP(net, process_group=pg)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=meshflow.optim.RMSprop, process_group=pg, lr=0.01)
rng = np.random.default_rng(560 + rank)
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"gws": dist.get_world_size(pg), "w": sums(net)}))
dist.destroy_process_group()
