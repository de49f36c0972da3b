import json, os, tempfile, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
M = mf.placement("cpu", ranks=[[0, 1], [2, 3]] if world == 4 else [[0]])   # data x tensor mesh
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(54)
net = nn.Sequential(nn.Linear(5, 6), nn.ReLU(), nn.Linear(6, 3)); net.to_global(M, (B, B))
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(54)
log = []
for it in range(3):
    x = mf.tensor(rng.standard_normal((8, 5)).astype(np.float32), placement=M, sbp=(S(0), S(0)))
    y = mf.tensor(rng.integers(0, 3, 8), placement=M, sbp=(S(0), S(0)))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        print(f"it {it} loss {loss.item():.4f}")
        log.append(float(loss))
        log.append(net[2].bias.tolist())
print("RESULT", rank, json.dumps({"log": log if rank == 0 else None}))
