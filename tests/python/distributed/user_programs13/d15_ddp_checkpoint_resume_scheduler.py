import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def make():
    net = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 3))
    g = np.random.default_rng(15)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
    model = DDP(net)
    opt = meshflow.optim.Adam(model.parameters(), lr=0.02)
    sched = meshflow.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6)
    return net, model, opt, sched

def train(model, opt, sched, epochs, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(epochs):
        x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 4))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        out.append(round(loss.item(), 4))
    return out

dist.init_process_group("gloo")
rank = dist.get_rank()
path = os.path.join(tempfile.gettempdir(), "r13_d15.pt")
net, model, opt, sched = make()
first = train(model, opt, sched, 3, 150 + rank)
if rank == 0:
    meshflow.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(), "epoch": 3}, path)
dist.barrier()
cont = train(model, opt, sched, 3, 160 + rank)
net2, model2, opt2, sched2 = make()
ck = meshflow.load(path, map_location={"cuda:0": "cpu"})
model2.load_state_dict(ck["model"]); opt2.load_state_dict(ck["optimizer"]); sched2.load_state_dict(ck["scheduler"])
resumed = train(model2, opt2, sched2, 3, 160 + rank)
dist.barrier()
if rank == 0:
    os.remove(path)
print("RESULT", rank, json.dumps({"first": first, "cont": cont, "resumed": resumed, "lr": round(sched2.get_last_lr()[0], 6),
                                  "epoch": ck["epoch"], "equal": all(meshflow.allclose(a, b) for a, b in zip(net.parameters(), net2.parameters()))}))
dist.destroy_process_group()
