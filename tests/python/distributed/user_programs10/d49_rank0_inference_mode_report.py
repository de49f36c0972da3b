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
net = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.GELU(), nn.Linear(4, 3)); init_(net, 49)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = mf.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, total_steps=4)
rng = np.random.default_rng(4900 + rank)
lrs = []
for _ in range(4):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lrs.append(round(opt.param_groups[0]["lr"], 8))
res = {"lrs": lrs, "w": sums(net)}
if rank == 0:
    with mf.inference_mode():
        out = net(mf.eye(3))
    res["report"] = {"pred": out.argmax(1).tolist(), "grad": out.requires_grad}
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
