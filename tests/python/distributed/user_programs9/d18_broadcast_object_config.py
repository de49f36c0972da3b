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
cfg = [{"lr": 0.2, "hidden": 5, "layers": ["tanh", "relu"]} if rank == 0 else None]
dist.broadcast_object_list(cfg, src=0)
cfg = cfg[0]
acts = {"tanh": nn.Tanh, "relu": nn.ReLU}
net = nn.Sequential(nn.Linear(2, cfg["hidden"]), *[acts[a]() for a in cfg["layers"]], nn.Linear(cfg["hidden"], 1)); init_(net, 18)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=cfg["lr"])
x = mf.tensor([[1.0, float(rank)], [0.5, -1.0]])
loss = model(x).mean()
opt.zero_grad(); loss.backward(); opt.step()
objs = [None] * world
dist.all_gather_object(objs, {"rank": rank, "loss": round(loss.item(), 5)})
print("RESULT", rank, json.dumps({"cfg": cfg, "objs": objs, "w": net[-1].weight.tolist()}))
dist.destroy_process_group()
