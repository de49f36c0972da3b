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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)); init_(net, 9)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.05)
rng = np.random.default_rng(900 + rank)
dtypes = []
for _ in range(2):
    x = mf.from_numpy(rng.standard_normal((4, 8)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 4, 4))
    with mf.autocast(device_type="cpu", dtype=mf.bfloat16):
        out = model(x)
        loss = F.cross_entropy(out.float(), y)
    dtypes.append([str(out.dtype), str(loss.dtype)])
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"dtypes": dtypes, "loss": round(loss.item(), 2), "grad_dtype": str(net[0].weight.grad.dtype)}))
dist.destroy_process_group()
