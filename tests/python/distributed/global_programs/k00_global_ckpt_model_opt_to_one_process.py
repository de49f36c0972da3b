import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

def model():
    return nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 3))
mf.manual_seed(40)
net = model()
plan = {"0.weight": S(0), "0.bias": S(0), "2.weight": S(1)}
net.to_global(P, lambda n, p: plan.get(n, B))
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(40)
data = [(rng.standard_normal((6, 4)).astype(np.float32), rng.integers(0, 3, 6)) for _ in range(3)]
for x, y in data[:2]:
    loss = F.cross_entropy(net(mf.tensor(x, placement=P, sbp=B)), mf.tensor(y, placement=P, sbp=B))
    opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"gp_k00_{world}.pt")
mf.save({"model": net.state_dict(), "optim": opt.state_dict()}, path)
ck = mf.load(path, map_location="cpu")
local = model()
local.load_state_dict(ck["model"])
lopt = mf.optim.Adam(local.parameters(), lr=1e-2)
lopt.load_state_dict(ck["optim"])
x, y = data[2]
loss = F.cross_entropy(local(mf.tensor(x)), mf.tensor(y)); lopt.zero_grad(); loss.backward(); lopt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": local[2].weight.sum().item(),
                                  "local": all(v.is_local for v in ck["model"].values()),
                                  "step": float(ck["optim"]["state"][0]["step"])}))
