import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
rng = np.random.default_rng(4)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
model = DDP(net, gradient_as_bucket_view=True, static_graph=True, bucket_cap_mb=1)
opt = mf.optim.SGD(model.parameters(), lr=0.05)
X = rng.standard_normal((5, 6, 4)).astype(np.float32)
losses = []
for i in range(5):
    x = mf.from_numpy(X[i, rank * 3:(rank + 1) * 3])
    loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
    opt.zero_grad(set_to_none=False)
    loss.backward()
    opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "w": net[4].weight.tolist(), "g": net[4].bias.grad.tolist()}))
dist.destroy_process_group()
