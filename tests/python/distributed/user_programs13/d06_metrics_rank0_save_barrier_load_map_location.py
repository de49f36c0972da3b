import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def build():
    m = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 2))
    g = np.random.default_rng(2)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
    return m

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = DDP(build())
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = meshflow.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
rng = np.random.default_rng(20 + rank)
path = os.path.join(tempfile.gettempdir(), "r13_d06_ckpt.pt")
log = []
for epoch in range(4):
    x = meshflow.from_numpy(rng.standard_normal((8, 5)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 8))
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward(); opt.step(); sched.step()
    metric = meshflow.tensor([loss.item(), 1.0])
    dist.all_reduce(metric)
    if rank == 0:
        log.append(round(metric[0].item() / metric[1].item(), 4))
        meshflow.save({"epoch": epoch, "model": model.module.state_dict(), "opt": opt.state_dict(),
                    "sched": sched.state_dict()}, path)
    dist.barrier()
ck = meshflow.load(path, map_location="cpu")
fresh = build()
fresh.load_state_dict(ck["model"])
opt2 = meshflow.optim.SGD(fresh.parameters(), lr=0.1, momentum=0.9)
opt2.load_state_dict(ck["opt"])
same = all(meshflow.equal(a, b) for a, b in zip(fresh.parameters(), model.module.parameters()))
x = meshflow.ones(2, 5)
dist.barrier()
if rank == 0:
    os.remove(path)
print("RESULT", rank, json.dumps({"log": log, "epoch": ck["epoch"], "same": same, "lr": opt2.param_groups[0]["lr"],
                                  "sched_epoch": ck["sched"]["last_epoch"], "keys": sorted(ck["model"].keys()),
                                  "out": [round(v, 4) for v in fresh(x).flatten().tolist()],
                                  "mom": round(opt2.state_dict()["state"][0]["momentum_buffer"].sum().item(), 4)}))
dist.destroy_process_group()
