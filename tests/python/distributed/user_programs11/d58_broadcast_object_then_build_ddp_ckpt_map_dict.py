import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
import tempfile
cfg = [{"hidden": 6, "lr": 0.05, "dir": tempfile.mkdtemp()} if rank == 0 else None]
dist.broadcast_object_list(cfg, src=0)
c = cfg[0]
net = nn.Sequential(nn.Linear(3, c["hidden"]), nn.ReLU(), nn.Linear(c["hidden"], 1)); init_(net, 58)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=c["lr"])
rng = np.random.default_rng(580 + rank)
x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
model(x).pow(2).mean().backward(); opt.step()
if rank == 0:
    meshflow.save(model.state_dict(), os.path.join(c["dir"], "m.pt"))
dist.barrier()
sd = meshflow.load(os.path.join(c["dir"], "m.pt"), map_location={"cuda:0": f"cpu"})
other = DDP(nn.Sequential(nn.Linear(3, c["hidden"]), nn.ReLU(), nn.Linear(c["hidden"], 1)))
other.load_state_dict(sd)
print("RESULT", rank, json.dumps({"hidden": c["hidden"], "w": sums(other.module), "same": sums(other.module) == sums(net)}))
dist.destroy_process_group()
