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
import io
net = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)); init_(net, 33 + rank)
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(330 + rank)
x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
F.cross_entropy(model(x), y).backward(); opt.step()
payload = [None]
if rank == 0:
    buf = io.BytesIO()
    meshflow.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": 1}, buf)
    payload[0] = buf.getvalue()
dist.broadcast_object_list(payload, src=0)
ck = meshflow.load(io.BytesIO(payload[0]), map_location=meshflow.device("cpu"), weights_only=True)
fresh = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))
fresh.load_state_dict(ck["model"])
opt2 = meshflow.optim.Adam(fresh.parameters(), lr=0.01); opt2.load_state_dict(ck["opt"])
print("RESULT", rank, json.dumps({"epoch": ck["epoch"], "step": [float(s["step"]) for s in opt2.state_dict()["state"].values()], "w": sums(fresh), "same": sums(fresh) == sums(net)}))
dist.destroy_process_group()
