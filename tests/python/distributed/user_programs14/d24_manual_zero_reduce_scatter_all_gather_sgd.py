import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.utils import parameters_to_vector, vector_to_parameters

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))  # 16 + 10 = 26 numbers
g = np.random.default_rng(11)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
n = sum(p.numel() for p in net.parameters())
padded = (n + world - 1) // world * world
shard_len = padded // world
rng = np.random.default_rng(1100 + rank)
momentum = meshflow.zeros(shard_len)
losses = []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((5, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 5))
    net.zero_grad()
    loss = F.cross_entropy(net(x), y); loss.backward()
    flat_g = meshflow.cat([p.grad.flatten() for p in net.parameters()] + [meshflow.zeros(padded - n)])
    gshard = meshflow.empty(shard_len)
    dist.reduce_scatter_tensor(gshard, flat_g, op=dist.ReduceOp.SUM)
    gshard /= world
    flat_p = meshflow.cat([parameters_to_vector(net.parameters()).detach(), meshflow.zeros(padded - n)])
    pshard = flat_p[rank * shard_len:(rank + 1) * shard_len].clone()
    momentum.mul_(0.9).add_(gshard)
    pshard -= 0.1 * momentum
    full = meshflow.empty(padded)
    dist.all_gather_into_tensor(full, pshard)
    vector_to_parameters(full[:n], net.parameters())
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "n": n, "shard": shard_len,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
