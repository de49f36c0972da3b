import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
# Trains 2 steps, saves (to $K00_CKPT: k00_saved_on_two_ranks was saved so), trains 2 more.

mf.manual_seed(140)
net = nn.Sequential(nn.Linear(5, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
plan = {"0.weight": S(0), "3.weight": S(1)}
net.to_global(P, lambda name, p: plan.get(name, B))
opt = mf.optim.Adam(net.parameters(), lr=0.02)
sched = mf.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
rng = np.random.default_rng(140)
data = [(rng.standard_normal((6, 5)).astype(np.float32), rng.integers(0, 3, 6)) for _ in range(4)]
def step(x, y):
    loss = F.cross_entropy(net(mf.tensor(x, placement=P, sbp=S(0))), mf.tensor(y, placement=P, sbp=S(0)))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    return loss.item()
first = [step(*d) for d in data[:2]]
path = os.environ.get("K00_CKPT") or os.path.join(tempfile.gettempdir(), f"r13_k00_{world}")
mf.save({"model": net.state_dict(), "optim": opt.state_dict(), "sched": sched.state_dict(), "epoch": 2}, path)
cont = [step(*d) for d in data[2:]]
net.eval()
with mf.no_grad():
    ev = net(mf.tensor(data[0][0], placement=P, sbp=B)).sum().item()
print("RESULT", rank, json.dumps({"first": first, "cont": cont, "ev": ev, "lr": sched.get_last_lr()[0]}))
