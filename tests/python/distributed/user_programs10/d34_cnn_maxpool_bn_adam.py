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
net = nn.Sequential(nn.Conv2d(1, 4, 3, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(4, 4, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 3 * 3, 3)); init_(net, 34)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=1e-3)
rng = np.random.default_rng(3400 + rank)
for _ in range(2):
    x = mf.from_numpy(rng.standard_normal((4, 1, 8, 8)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net), "rv": net[1].running_var.tolist()}))
dist.destroy_process_group()
