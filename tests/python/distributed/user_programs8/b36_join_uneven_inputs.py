import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Linear(3, 1)
with mf.no_grad():
    net.weight.copy_(mf.tensor([[0.5, -0.5, 0.25]])); net.bias.fill_(0.0)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(27)
X = rng.standard_normal((5, 2, 3)).astype(np.float32)
n_batches = 3 if rank == 0 else 2
with model.join():
    for i in range(n_batches):
        x = mf.from_numpy(X[i, rank:rank + 1])
        loss = model(x).pow(2).sum()
        opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"w": net.weight.tolist(), "b": net.bias.tolist()}))
dist.destroy_process_group()
