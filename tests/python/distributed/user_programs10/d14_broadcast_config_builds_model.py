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
cfg = [{"hidden": 7, "layers": 2, "lr": 0.03, "act": "silu"}] if rank == 0 else [None]
dist.broadcast_object_list(cfg, src=0)
cfg = cfg[0]
acts = {"silu": nn.SiLU, "relu": nn.ReLU}
layers, d = [], 3
for _ in range(cfg["layers"]):
    layers += [nn.Linear(d, cfg["hidden"]), acts[cfg["act"]]()]; d = cfg["hidden"]
net = nn.Sequential(*layers, nn.Linear(d, 1)); init_(net, 14)
model = DDP(net)
opt = mf.optim.RMSprop(model.parameters(), lr=cfg["lr"])
rng = np.random.default_rng(1500 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    loss = model(x).abs().mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"cfg": cfg, "loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
