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
import tempfile
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
net = nn.Linear(3, 2); init_(net, 18 + rank)
rng = np.random.default_rng(1800 + rank)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
loss = net(mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))).sum()
loss.backward(); opt.step()
mf.save(net.state_dict(), os.path.join(box[0], f"shard_{rank}.pt"))
dist.barrier()
res = {}
if rank == 0:
    states = [mf.load(os.path.join(box[0], f"shard_{r}.pt"), map_location="cpu") for r in range(world)]
    avg = {k: sum(s[k] for s in states) / world for k in states[0]}
    merged = nn.Linear(3, 2); merged.load_state_dict(avg)
    res = {"avg": sums(merged), "keys": sorted(avg)}
dist.barrier()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
