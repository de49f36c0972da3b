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
import tempfile
path = os.path.join(tempfile.gettempdir(), "up9_d27.pt")
def build():
    n = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)); init_(n, 27)
    m = DDP(n)
    o = mf.optim.Adam(m.parameters(), lr=1e-2)
    s = mf.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)
    return n, m, o, s
def train(m, o, s, epochs, start):
    g = np.random.default_rng(270 + rank)
    for e in range(start, start + epochs):
        g2 = np.random.default_rng(1000 * e + rank)
        x = mf.from_numpy(g2.standard_normal((4, 3)).astype(np.float32))
        loss = m(x).pow(2).mean()
        o.zero_grad(); loss.backward(); o.step(); s.step()
    return loss.item()
net, model, opt, sched = build()
train(model, opt, sched, 2, 0)
if rank == 0:
    mf.save({"epoch": 2, "model": model.module.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict()}, path)
dist.barrier()
net2, model2, opt2, sched2 = build()
ck = mf.load(path, map_location="cpu")
model2.module.load_state_dict(ck["model"]); opt2.load_state_dict(ck["optimizer"]); sched2.load_state_dict(ck["scheduler"])
l2 = train(model2, opt2, sched2, 2, ck["epoch"])
l1 = train(model, opt, sched, 2, 2)
print("RESULT", rank, json.dumps({"l1": l1, "l2": l2, "lr": sched2.get_last_lr(), "w": net2[2].weight.tolist(), "w1": net[2].weight.tolist()}))
dist.destroy_process_group()
