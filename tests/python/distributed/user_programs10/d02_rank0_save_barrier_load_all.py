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
path = os.path.join(box[0], "ckpt.pt")
net = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 2)); init_(net, 3)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(300 + rank)
def step():
    x = mf.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
    y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.item()
for _ in range(2): step()
if rank == 0:
    mf.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": 2}, path)
dist.barrier()
ckpt = mf.load(path, map_location="cpu")
fresh = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 2))
fresh.load_state_dict(ckpt["model"])
model = DDP(fresh)
opt = mf.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
opt.load_state_dict(ckpt["opt"])
last = step()
print("RESULT", rank, json.dumps({"epoch": ckpt["epoch"], "loss": last, "w": sums(fresh)}))
dist.destroy_process_group()
