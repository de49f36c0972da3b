import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.optim import ZeroRedundancyOptimizer
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def make():
    net = nn.Sequential(nn.Linear(3, 7), nn.ReLU(), nn.Linear(7, 5), nn.ReLU(), nn.Linear(5, 1))
    rng = np.random.default_rng(46)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
    return net
X = np.random.default_rng(47).standard_normal((6, 4, 3)).astype(np.float32)
def step(model, opt, sched, i):
    x = mf.from_numpy(X[i, rank * 2:(rank + 1) * 2])
    loss = (model(x) - x[:, :1]).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    return loss.item()
model = DDP(make())
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=mf.optim.AdamW, lr=0.02, weight_decay=0.05)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
l1 = [step(model, opt, sched, i) for i in range(3)]
d = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(d, src=0)
path = os.path.join(d[0], "ckpt.pt")
opt.consolidate_state_dict(to=0)
if rank == 0:
    mf.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict()}, path)
dist.barrier()
ck = mf.load(path)
model2 = DDP(make()); model2.module.load_state_dict(ck["model"])
opt2 = ZeroRedundancyOptimizer(model2.parameters(), optimizer_class=mf.optim.AdamW, lr=0.02, weight_decay=0.05)
opt2.load_state_dict(ck["opt"])
sched2 = mf.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5); sched2.load_state_dict(ck["sched"])
l2 = [step(model2, opt2, sched2, i) for i in range(3, 6)]
dist.barrier()
if rank == 0:
    os.remove(path); os.rmdir(d[0])
print("RESULT", rank, json.dumps({"l1": l1, "l2": l2, "lr": opt2.param_groups[0]["lr"], "w": model2.module[4].weight.tolist()}))
dist.destroy_process_group()
