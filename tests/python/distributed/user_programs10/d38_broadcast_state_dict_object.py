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
net = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1)); init_(net, 38 + rank)
box = [net.state_dict()] if rank == 0 else [None]
dist.broadcast_object_list(box, src=0)
net.load_state_dict(box[0])
opt = mf.optim.SGD(net.parameters(), lr=0.1)
model = DDP(net)
rng = np.random.default_rng(3800 + rank)
loss = model(mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))).square().mean()
opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"types": sorted({type(v).__name__ for v in box[0].values()}), "w": sums(net)}))
dist.destroy_process_group()
