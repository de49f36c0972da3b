import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
g = np.random.default_rng(7)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(800 + rank)
out = {}
x1 = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
x2 = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
try:
    loss = model(x1).pow(2).mean() + model(x2).abs().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    out["first"] = "ok"
except RuntimeError as e:
    out["first"] = "refused"
# the documented way: one forward over both inputs
loss = model(meshflow.cat([x1, x2])).pow(2).mean()
opt.zero_grad(); loss.backward(); opt.step()
out["loss"] = round(loss.item(), 5)
out["w"] = [round(p.sum().item(), 5) for p in net.parameters()]
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
