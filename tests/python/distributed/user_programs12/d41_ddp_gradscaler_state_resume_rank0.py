import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def make():
    m = nn.Sequential(nn.Linear(5, 8), nn.GELU(), nn.Linear(8, 2))
    g = np.random.default_rng(41)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return DDP(m)
def train(ddp, opt, scaler, sched, seed, steps):
    rng = np.random.default_rng(seed + rank)
    out = []
    for _ in range(steps):
        x = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
        loss = F.cross_entropy(ddp(x), y)
        opt.zero_grad(); scaler.scale(loss).backward(); scaler.step(opt); scaler.update(); sched.step()
        out.append(round(loss.item(), 5))
    return out
ddp = make(); opt = meshflow.optim.Adam(ddp.parameters(), lr=0.01)
scaler = meshflow.amp.GradScaler("cpu", init_scale=256.0, growth_interval=2)
sched = meshflow.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
first = train(ddp, opt, scaler, sched, 100, 3)
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
path = os.path.join(box[0], "ckpt.pt")
if rank == 0:
    meshflow.save({"model": ddp.module.state_dict(), "opt": opt.state_dict(), "scaler": scaler.state_dict(),
                "sched": sched.state_dict()}, path)
dist.barrier()
cont = train(ddp, opt, scaler, sched, 200, 2)
ck = meshflow.load(path, map_location="cpu")
ddp2 = make(); opt2 = meshflow.optim.Adam(ddp2.parameters(), lr=0.01)
scaler2 = meshflow.amp.GradScaler("cpu"); sched2 = meshflow.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.9)
ddp2.module.load_state_dict(ck["model"]); opt2.load_state_dict(ck["opt"]); scaler2.load_state_dict(ck["scaler"]); sched2.load_state_dict(ck["sched"])
resumed = train(ddp2, opt2, scaler2, sched2, 200, 2)
dist.barrier()
if rank == 0:
    os.remove(path); os.rmdir(box[0])
print("RESULT", rank, json.dumps({"first": first, "cont": cont, "resumed": resumed, "scale": scaler2.get_scale(),
                                  "lr": round(sched2.get_last_lr()[0], 6)}))
dist.destroy_process_group()
