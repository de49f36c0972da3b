import json, os, shutil, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

def arch():
    return nn.Sequential(nn.Embedding(20, 8), nn.Flatten(), nn.Linear(24, 12), nn.LayerNorm(12), nn.ReLU(), nn.Linear(12, 5))

mf.manual_seed(135)
net = arch()
plan = {"0.weight": S(0), "2.weight": S(0), "2.bias": S(0), "5.weight": S(1)}
net.to_global(P, lambda name, p: plan.get(name, B))
opt = mf.optim.AdamW(net.parameters(), lr=0.01)
rng = np.random.default_rng(135)
losses = []
for _ in range(3):
    x = mf.tensor(rng.integers(0, 20, (4, 3)), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 5, 4), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
path = os.path.join(tempfile.gettempdir(), "r13_g05_ckpt")
mf.save({"model": net.state_dict(), "optimizer": opt.state_dict(), "losses": losses}, path)
ck = mf.load(path, map_location="cpu")          # torch's spelling: whole local tensors
local = arch()
local.load_state_dict(ck["model"])
probe = np.arange(6).reshape(2, 3) % 20
with mf.no_grad():
    a = local(mf.tensor(probe)).sum().item()
    b = net(mf.tensor(probe, placement=P, sbp=B)).sum().item()
state = ck["optimizer"]["state"]
dist.barrier()
if rank == 0:
    shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
print("RESULT", rank, json.dumps({"losses": losses, "a": a, "same": abs(a - b) < 1e-5, "saved_losses": ck["losses"],
                                  "local": all(v.is_local for v in ck["model"].values()),
                                  "exp_avg": state[2]["exp_avg"].sum().item(), "shapes": [list(v.shape) for v in ck["model"].values()]}))
