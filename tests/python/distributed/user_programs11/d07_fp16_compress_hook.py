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
from meshflow.distributed.algorithms.ddp_comm_hooks import default_hooks as default
net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3)); init_(net, 7)
model = DDP(net)
model.register_comm_hook(state=None, hook=default.fp16_compress_hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(80 + rank)
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((5, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 5))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
g = net[0].weight.grad
exact = (g.half().float() == g).all().item()
print("RESULT", rank, json.dumps({"dtype": str(g.dtype), "fp16_representable": exact, "g": [round(p.grad.double().sum().item(), 6) for p in net.parameters()], "w": sums(net)}))
dist.destroy_process_group()
