import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def build():
    m = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    g = np.random.default_rng(24)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
    return m

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = DDP(build())
opt = meshflow.optim.SGD(model.parameters(), lr=0.03)
ckdir = os.path.join(tempfile.gettempdir(), "r13_d24")
if rank == 0:
    os.makedirs(ckdir, exist_ok=True)
dist.barrier()
rng = np.random.default_rng(240 + rank)
xv = meshflow.from_numpy(np.random.default_rng(241).standard_normal((8, 3)).astype(np.float32))
yv = (xv ** 2).sum(1, keepdim=True)
best, saved = float("inf"), []
for epoch in range(5):
    x = meshflow.from_numpy(rng.standard_normal((6, 3)).astype(np.float32))
    loss = F.mse_loss(model(x), (x ** 2).sum(1, keepdim=True))
    opt.zero_grad(); loss.backward(); opt.step()
    with meshflow.no_grad():
        v = F.mse_loss(model(xv), yv)
    dist.all_reduce(v)
    v = v.item() / world
    if v < best:
        best = v
        if rank == 0:
            meshflow.save(model.module.state_dict(), os.path.join(ckdir, "best.pt"))
            saved.append(epoch)
    dist.barrier()
m = build()
m.load_state_dict(meshflow.load(os.path.join(ckdir, "best.pt"), map_location="cpu"))
with meshflow.no_grad():
    bv = F.mse_loss(m(xv), yv).item()
dist.barrier()
if rank == 0:
    os.remove(os.path.join(ckdir, "best.pt")); os.rmdir(ckdir)
print("RESULT", rank, json.dumps({"best": round(best, 4), "saved": saved if rank == 0 else None, "reloaded": round(bv, 4)}))
dist.destroy_process_group()
