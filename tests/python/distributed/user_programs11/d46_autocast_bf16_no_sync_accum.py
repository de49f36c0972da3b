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
net = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2)); init_(net, 46)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05)
rng = np.random.default_rng(460 + rank)
dts = []
for micro in range(2):
    x = meshflow.from_numpy(rng.standard_normal((4, 8)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    with meshflow.autocast("cpu", dtype=meshflow.bfloat16):
        out = model(x)
    dts.append(str(out.dtype))
    loss = F.cross_entropy(out.float(), y) / 2
    if micro == 0:
        with model.no_sync():
            loss.backward()
    else:
        loss.backward()
opt.step()
print("RESULT", rank, json.dumps({"dts": dts, "gdt": str(net[0].weight.grad.dtype), "w": [round(v, 2) for v in sums(net)]}))
dist.destroy_process_group()
