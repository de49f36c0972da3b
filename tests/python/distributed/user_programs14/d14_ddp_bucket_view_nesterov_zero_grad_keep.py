import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Conv1d(2, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6, 2))
g = np.random.default_rng(3)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net, gradient_as_bucket_view=True, bucket_cap_mb=1)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
rng = np.random.default_rng(300 + rank)
losses, same_obj = [], []
for step in range(4):
    x = meshflow.from_numpy(rng.standard_normal((4, 2, 8)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=False)
    loss.backward()
    same_obj.append(round(net[0].weight.grad.abs().sum().item(), 5))
    opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "gsum": same_obj,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
