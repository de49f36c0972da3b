import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
import os, tempfile
net = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)); init_(net, 51)
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.2)
rng = np.random.default_rng(51)
vx = mf.tensor(rng.standard_normal((3, 4)).astype(np.float32), placement=P, sbp=B)
best, log, evals = float("inf"), [], []
for epoch in range(3):
    x = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 6), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        log.append(float(loss))
        if loss < best:
            best = loss.item()
        with mf.no_grad():
            evals.append(net(vx).softmax(-1)[:, 1].tolist())
        path = os.path.join(tempfile.gettempdir(), f"g11_{os.getpid()}.pt")
        mf.save(net.state_dict(), path)
        back = mf.load(path, map_location="cpu"); os.remove(path)
        saved = round(sum(v.sum().item() for v in back.values()), 5)
w = [round(p.sum().item(), 5) for p in net.parameters()]
if rank == 0:
    print("RESULT", rank, json.dumps({"log": log, "best": best, "evals": evals, "saved": saved, "w": w}))
else:
    print("RESULT", rank, json.dumps({"w": w}))
