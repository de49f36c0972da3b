import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(32)
net = nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(32)
val = [(rng.standard_normal((4, 5)).astype(np.float32), rng.integers(0, 3, 4)) for _ in range(3)]
acc = []
for epoch in range(2):
    net.train()
    x = mf.tensor(rng.standard_normal((8, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        net.eval()
        correct, total, vloss = 0, 0, 0.0
        with mf.no_grad():
            for xv, yv in val:
                out = net(mf.tensor(xv))
                vloss += F.cross_entropy(out, mf.tensor(yv), reduction="sum").item()
                correct += (out.argmax(1) == mf.tensor(yv)).sum().item()
                total += len(yv)
        acc.append([correct / total, vloss / total])
print("RESULT", rank, json.dumps({"acc": acc if rank == 0 else None, "w": net[3].weight.sum().item()}))
