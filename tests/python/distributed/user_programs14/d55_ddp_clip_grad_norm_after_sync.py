import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 12), nn.ReLU(), nn.Linear(12, 4))
g = np.random.default_rng(30)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.6).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(3000 + rank)
norms, losses = [], []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((8, 6)).astype(np.float32) * 3); y = meshflow.from_numpy(rng.integers(0, 4, 8))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward()
    norms.append(round(meshflow.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0).item(), 4))
    meshflow.nn.utils.clip_grad_value_(model.parameters(), 0.2)
    opt.step(); losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"norms": norms, "losses": losses, "w": [round(p.sum().item(), 4) for p in net.parameters()]}))
dist.destroy_process_group()
