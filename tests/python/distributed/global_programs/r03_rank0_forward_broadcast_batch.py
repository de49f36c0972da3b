import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(33)
net = nn.Sequential(nn.Linear(3, 6), nn.LayerNorm(6), nn.ReLU(), nn.Linear(6, 2)); net.to_global(P, B)
opt = mf.optim.AdamW(net.parameters(), lr=1e-2)
rng = np.random.default_rng(33)
probe = mf.tensor(rng.standard_normal((2, 3)).astype(np.float32), placement=P, sbp=B)
seen = []
for it in range(3):
    x = mf.tensor(rng.standard_normal((4, 3)).astype(np.float32), placement=P, sbp=S(0))
    loss = net(x).pow(2).mean(); opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        with mf.no_grad():
            p = net(probe)
        seen.append(p.softmax(-1)[:, 0].tolist())
        seen.append(bool(loss < 10.0))
print("RESULT", rank, json.dumps({"seen": seen if rank == 0 else None, "loss": loss.item()}))
