import json, os, tempfile, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
M = mf.placement("cpu", ranks=[[0, 1], [2, 3]] if world == 4 else [[0]])   # data x tensor mesh
B, S = mf.sbp.broadcast, mf.sbp.split
pair = mf.placement("cpu", ranks=[0, 1] if world == 4 else [0])

def model():
    return nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 2))
mf.manual_seed(53)
a = model(); a.to_global(pair, lambda n, p: S(0) if p.dim() == 2 else mf.sbp.broadcast)
rng = np.random.default_rng(53)
opt = mf.optim.SGD(a.parameters(), lr=0.1)
x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=pair, sbp=S(0))
loss = a(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"gp_m03_{world}.pt")
mf.save(a.state_dict(), path)
b = model(); b.to_global(M, lambda n, p: (S(0), S(1)) if p.dim() == 2 else (B, B))
b.load_state_dict(mf.load(path))
bopt = mf.optim.SGD(b.parameters(), lr=0.1)
losses = [loss.item()]
for _ in range(2):
    xm = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=M, sbp=(S(0), B))
    l = b(xm).square().mean(); bopt.zero_grad(); l.backward(); bopt.step(); losses.append(l.item())
print("RESULT", rank, json.dumps({"losses": losses, "w": b[0].weight.sum().item()}))
