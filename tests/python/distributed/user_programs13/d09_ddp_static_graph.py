import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(3, 7), nn.SiLU(), nn.Linear(7, 7), nn.SiLU(), nn.Linear(7, 2))
g = np.random.default_rng(6)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
model = DDP(net, static_graph=True, gradient_as_bucket_view=True)
opt = meshflow.optim.RMSprop(model.parameters(), lr=0.01)
rng = np.random.default_rng(60 + rank)
losses = []
for _ in range(5):
    x = meshflow.from_numpy(rng.standard_normal((6, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 6))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "w": [round(p.sum().item(), 4) for p in net.parameters()]}))
dist.destroy_process_group()
