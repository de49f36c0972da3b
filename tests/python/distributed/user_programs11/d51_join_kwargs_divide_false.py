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
from meshflow.distributed.algorithms.join import Join
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)); init_(net, 51)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(510 + rank)
with Join([model], divide_by_initial_world_size=False):
    for _ in range(1 + 2 * rank):
        x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
        loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"w": sums(net)}))
dist.destroy_process_group()
