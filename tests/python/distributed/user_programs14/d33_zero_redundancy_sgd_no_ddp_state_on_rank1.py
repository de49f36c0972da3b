import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.distributed.optim import ZeroRedundancyOptimizer

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 3))
g = np.random.default_rng(16)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
opt = ZeroRedundancyOptimizer(net.parameters(), optimizer_class=meshflow.optim.SGD, lr=0.05, momentum=0.9,
                              weight_decay=1e-3)
rng = np.random.default_rng(1600 + rank)
losses = []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 4))
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y); loss.backward()
    for p in net.parameters():
        dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
    opt.step()
    losses.append(round(loss.item(), 5))
opt.consolidate_state_dict(to=1)
info = {"losses": losses, "w": [round(p.sum().item(), 5) for p in net.parameters()]}
if rank == 1:
    sd = opt.state_dict()
    info["n"] = len(sd["state"])
    info["mom"] = round(sum(s["momentum_buffer"].sum().item() for s in sd["state"].values()), 4)
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
