import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(132)
net = nn.Sequential(nn.Linear(5, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 3))
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
sched = mf.optim.lr_scheduler.StepLR(opt, 2, 0.5)
rng = np.random.default_rng(132)
path = os.path.join(tempfile.gettempdir(), "r13_g02.pt")
log = []
for epoch in range(4):
    net.train()
    x = mf.tensor(rng.standard_normal((8, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    value = loss.item()                        # every rank reads the (broadcast) loss
    if rank == 0:
        log.append(round(value, 6))
    state = {"epoch": epoch, "model": net.state_dict(), "opt": opt.state_dict()}
    mf.save(state, path)                       # every rank calls save of global tensors
    dist.barrier()
net.eval()
with mf.no_grad():
    xv = mf.tensor(rng.standard_normal((6, 5)).astype(np.float32), placement=P, sbp=S(0))
    acc = (net(xv).argmax(1) == mf.tensor(rng.integers(0, 3, 6), placement=P, sbp=S(0))).float().mean().item()
loaded = mf.load(path, map_location="cpu")
plain = nn.Sequential(nn.Linear(5, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 3))
plain.load_state_dict(loaded["model"]); plain.eval()
one = plain(mf.ones(2, 5)).sum().item()
dist.barrier()
if rank == 0:
    os.remove(path) if os.path.isfile(path) else __import__("shutil").rmtree(path)
print("RESULT", rank, json.dumps({"log": log if rank == 0 else None, "acc": acc, "epoch": loaded["epoch"], "one": one,
                                  "rm": net[1].running_mean.sum().item(), "lr": sched.get_last_lr()[0]}))
