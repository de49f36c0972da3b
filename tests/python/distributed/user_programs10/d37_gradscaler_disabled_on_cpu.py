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
device = "cpu"
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device); init_(net, 37)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
scaler = mf.amp.GradScaler(device, enabled=(device == "cuda"))
rng = np.random.default_rng(3700 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)).to(device); y = mf.from_numpy(rng.integers(0, 2, 4)).to(device)
    with mf.autocast(device_type=device, enabled=(device == "cuda")):
        loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt); scaler.update()
print("RESULT", rank, json.dumps({"loss": loss.item(), "scale": scaler.get_scale(), "w": sums(net)}))
dist.destroy_process_group()
