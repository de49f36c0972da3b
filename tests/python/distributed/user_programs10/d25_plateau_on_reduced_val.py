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
net = nn.Linear(4, 1); init_(net, 25)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.5)
sched = mf.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=0)
rng = np.random.default_rng(2500 + rank)
lrs = []
for epoch in range(4):
    x = mf.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = mf.from_numpy(rng.standard_normal((4, 1)).astype(np.float32))
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    val = loss.detach().clone(); dist.all_reduce(val); val /= world
    sched.step(val.item())
    lrs.append(opt.param_groups[0]["lr"])
print("RESULT", rank, json.dumps({"lrs": lrs, "w": sums(net)}))
dist.destroy_process_group()
