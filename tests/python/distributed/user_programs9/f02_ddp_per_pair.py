import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
pairs = [dist.new_group([0, 1]), dist.new_group([2, 3])]
net = nn.Linear(3, 2)
g = np.random.default_rng(2)
with mf.no_grad():
    net.weight.copy_(mf.from_numpy(g.standard_normal((2, 3)).astype(np.float32)))
    net.bias.copy_(mf.tensor([0.1 * rank, 0.0]))
model = DDP(net, process_group=pairs[rank // 2])
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(20 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"w": net.weight.tolist(), "b": net.bias.tolist()}))
dist.destroy_process_group()
