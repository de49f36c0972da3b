import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2))
rng = np.random.default_rng(20)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
net[0].weight.requires_grad_(False)
model = DDP(net)
opt = mf.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.2)
T = rng.integers(0, 10, (3, 4, 3))
for i in range(3):
    tok = mf.from_numpy(T[i, rank * 2:(rank + 1) * 2])
    loss = model(tok).logsumexp(1).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"emb_grad": net[0].weight.grad is None, "w": net[2].weight.tolist(), "emb0": net[0].weight[0].tolist()}))
dist.destroy_process_group()
