import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
g = np.random.default_rng(4)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05)
accum = 4
rng = np.random.default_rng(30 + rank)
grads_local, losses = [], []
opt.zero_grad()
for i in range(8):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((3, 1)).astype(np.float32))
    if (i + 1) % accum != 0:
        with model.no_sync():
            loss = nn.functional.mse_loss(model(x), y) / accum
            loss.backward()
        grads_local.append(round(net[0].weight.grad.sum().item(), 4))
    else:
        loss = nn.functional.mse_loss(model(x), y) / accum
        loss.backward()
        grads_local.append(round(net[0].weight.grad.sum().item(), 4))
        opt.step()
        opt.zero_grad()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"grads": grads_local, "losses": losses,
                                  "w": round(net[2].weight.sum().item(), 4), "grad_none": net[0].weight.grad is None}))
dist.destroy_process_group()
