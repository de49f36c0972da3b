import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(36)
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.2)
rng = np.random.default_rng(36)
best, hist = float("inf"), []
for it in range(4):
    x = mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
    out = net(x)
    loss = F.cross_entropy(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
    with mf.no_grad():
        correct = (out.argmax(1) == y).sum()
    if rank == 0:
        acc = correct.item() / 8
        if loss.item() < best:
            best = loss.item()
        hist.append([round(acc, 4), f"{loss.item():.5f}"])
print("RESULT", rank, json.dumps({"hist": hist if rank == 0 else None, "best": best if rank == 0 else None}))
