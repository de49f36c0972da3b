import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
everyone = mf.placement("cpu", ranks=list(range(world)))
pair = mf.placement("cpu", ranks=[2, 3] if world == 4 else [0])
B, S = mf.sbp.broadcast, mf.sbp.split

def model():
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3))
mf.manual_seed(56)
a = model(); a.to_global(everyone, lambda n, p: S(1) if n == "2.weight" else (S(0) if n.startswith("0.") else B))
opt = mf.optim.AdamW(a.parameters(), lr=1e-2)
rng = np.random.default_rng(56)
for _ in range(2):
    x = mf.tensor(rng.standard_normal((8, 5)).astype(np.float32), placement=everyone, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=everyone, sbp=S(0))
    loss = F.cross_entropy(a(x), y); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"gp_m06_{world}.pt")
mf.save({"model": a.state_dict(), "opt": opt.state_dict()}, path)
ck = mf.load(path)
b = model(); b.to_global(pair, B)                      # the other pair of ranks, broadcast
b.load_state_dict(ck["model"])
bopt = mf.optim.AdamW(b.parameters(), lr=1e-2); bopt.load_state_dict(ck["opt"])
xb = mf.tensor(rng.standard_normal((4, 5)).astype(np.float32), placement=pair, sbp=S(0))
lb = b(xb).square().mean(); bopt.zero_grad(); lb.backward(); bopt.step()
one = model()                                          # and loaded as one process loads it
one.load_state_dict(mf.load(path, map_location="cpu")["model"])
with mf.no_grad():
    y1 = one(mf.ones(1, 5))
print("RESULT", rank, json.dumps({"loss": loss.item(), "lb": lb.item(), "w": b[2].weight.sum().item(), "y1": y1.tolist()}))
