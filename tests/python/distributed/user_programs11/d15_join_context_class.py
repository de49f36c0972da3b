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
net = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)); init_(net, 15)
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(150 + rank)
data = [(meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)), meshflow.from_numpy(rng.integers(0, 2, 3))) for _ in range(2 + 2 * rank)]
losses = []
with Join([model]):
    for x, y in data:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step(); losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "w": sums(net)}))
dist.destroy_process_group()
