import json, os, tempfile
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
g = np.random.default_rng(10)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.05)
sched = meshflow.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
path = os.path.join(box[0], "best.pt")
rng = np.random.default_rng(100 + rank)
vx = meshflow.tensor(np.random.default_rng(7).standard_normal((10, 3)).astype(np.float32))
vy = vx[:, :1] - vx[:, 1:2]
best, best_epoch, vals = 1e9, -1, []
for epoch in range(5):
    model.train()
    x = meshflow.tensor(rng.standard_normal((6, 3)).astype(np.float32))
    loss = F.mse_loss(model(x), x[:, :1] - x[:, 1:2])
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    model.eval()
    with meshflow.no_grad():
        v = F.mse_loss(model(vx), vy)
    dist.all_reduce(v, op=dist.ReduceOp.AVG)
    vals.append(round(v.item(), 5))
    if v.item() < best:
        best, best_epoch = v.item(), epoch
        if rank == 0:
            meshflow.save({"epoch": epoch, "model": model.module.state_dict(), "optimizer": opt.state_dict(),
                           "scheduler": sched.state_dict(), "best": best}, path)
    dist.barrier()
ckpt = meshflow.load(path, map_location="cpu", weights_only=False)
fresh = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
fresh.load_state_dict(ckpt["model"])
with meshflow.no_grad():
    again = F.mse_loss(fresh(vx), vy).item()
dist.barrier()
if rank == 0:
    os.remove(path); os.rmdir(box[0])
print("RESULT", rank, json.dumps({"vals": vals, "best_epoch": best_epoch, "ckpt_epoch": ckpt["epoch"],
                                  "lr": ckpt["scheduler"]["_last_lr"], "again": round(again, 5),
                                  "steps": int(ckpt["optimizer"]["state"][0]["step"].item())}))
dist.destroy_process_group()
