import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Conv1d(2, 8, 5, padding=2), nn.GroupNorm(2, 8), nn.ReLU(),
                    nn.Conv1d(8, 8, 3, padding=2, dilation=2), nn.GroupNorm(4, 8), nn.ReLU(),
                    nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(8, 3))
g = np.random.default_rng(34)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.NAdam(model.parameters(), lr=0.01)
rng = np.random.default_rng(340 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((3, 2, 16)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 3))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "gn": round(net[1].weight.sum().item(), 4), "c": round(net[3].weight.sum().item(), 4)}))
dist.destroy_process_group()
