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
net = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 3)); init_(net, 18)
model = DDP(net)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=meshflow.optim.Adam, parameters_as_bucket_view=True, lr=0.02)
sched = meshflow.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
rng = np.random.default_rng(180 + rank)
lrs = []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lrs.append(opt.param_groups[0]["lr"])
print("RESULT", rank, json.dumps({"lrs": lrs, "w": sums(net)}))
dist.destroy_process_group()
