import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
rng = np.random.default_rng(13)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
opt = mf.optim.SGD(net.parameters(), lr=0.1)
data = np.random.default_rng(100 + rank).standard_normal((6, 4, 3)).astype(np.float32)
hist = []
for i in range(6):
    x = mf.from_numpy(data[i])
    loss = (net(x).squeeze(1) - x[:, 0]).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if (i + 1) % 2 == 0:
        with mf.no_grad():
            for p in net.parameters():
                dist.all_reduce(p.data, op=dist.ReduceOp.SUM)
                p.data /= world
        hist.append(net[2].weight.sum().item())
print("RESULT", rank, json.dumps({"hist": hist, "w": net[0].weight.tolist()}))
dist.destroy_process_group()
