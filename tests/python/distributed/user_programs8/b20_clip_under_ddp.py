import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4))
rng = np.random.default_rng(14)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
X = rng.standard_normal((4, 6, 4)).astype(np.float32) * 3
norms, vnorms = [], []
for i in range(4):
    x = mf.from_numpy(X[i, rank * 3:(rank + 1) * 3])
    loss = (model(x) - 1).pow(2).sum()
    opt.zero_grad(); loss.backward()
    norms.append(mf.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0).item())
    mf.nn.utils.clip_grad_value_(model.parameters(), 0.05)
    vnorms.append(max(p.grad.abs().max().item() for p in model.parameters()))
    opt.step()
print("RESULT", rank, json.dumps({"norms": norms, "v": vnorms, "w": net[2].weight.tolist()}))
dist.destroy_process_group()
