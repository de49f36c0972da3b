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
from meshflow.distributed.algorithms.ddp_comm_hooks import default_hooks
pairs = [dist.new_group([0, 1]), dist.new_group([2, 3])]
pg = pairs[rank // 2]
net = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)); init_(net, 107 + rank // 2)
model = DDP(net, process_group=pg)
model.register_comm_hook(pg, default_hooks.fp16_compress_hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(1070 + rank)
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 3))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"g": [round(p.grad.sum().item(), 6) for p in net.parameters()], "w": sums(net)}))
dist.destroy_process_group()
