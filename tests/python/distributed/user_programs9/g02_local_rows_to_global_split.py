import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
rng = np.random.default_rng(102)
X = rng.standard_normal((12, 3)).astype(np.float32); Y = X @ np.array([[0.5], [-1.0], [2.0]], np.float32)
per = len(X) // world
net = nn.Linear(3, 1); init_(net, 102); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
for _ in range(4):
    x = mf.from_numpy(X[rank * per:(rank + 1) * per]).to_global(P, S(0))
    y = mf.from_numpy(Y[rank * per:(rank + 1) * per]).to_global(P, S(0))
    loss = F.mse_loss(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": net.weight.to_local().tolist(), "shape": list(x.shape)}))
