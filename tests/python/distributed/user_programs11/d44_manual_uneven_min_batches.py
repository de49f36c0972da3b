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
net = nn.Sequential(nn.Linear(4, 3)); init_(net, 44)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(440 + rank)
n_local = meshflow.tensor([5 + 3 * rank])
dist.all_reduce(n_local, op=dist.ReduceOp.MIN)
steps = int(n_local.item())
for _ in range(steps):
    x = meshflow.from_numpy(rng.standard_normal((2, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 2))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"steps": steps, "dtype": str(n_local.dtype), "w": sums(net)}))
dist.destroy_process_group()
