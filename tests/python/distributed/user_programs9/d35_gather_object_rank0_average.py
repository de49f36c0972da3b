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
net = nn.Linear(2, 2); init_(net, 35)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
metrics = {"loss": [], "n": 0}
rng = np.random.default_rng(350 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((2 + rank, 2)).astype(np.float32))
    loss = F.mse_loss(model(x), x.flip(1))
    opt.zero_grad(); loss.backward(); opt.step()
    metrics["loss"].append(round(loss.item(), 5)); metrics["n"] += len(x)
gathered = [None] * world if rank == 0 else None
dist.gather_object(metrics, gathered, dst=0)
if rank == 0:
    total = sum(m["n"] for m in gathered)
    avg = sum(sum(m["loss"]) * m["n"] for m in gathered) / total
    print("RESULT", rank, json.dumps({"total": total, "avg": round(avg, 4), "g": gathered}))
print("RESULT", rank, json.dumps(net.weight.tolist()))
dist.destroy_process_group()
