import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.utils import parameters_to_vector, vector_to_parameters

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
g = np.random.default_rng(42)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
opt = meshflow.optim.SGD(net.parameters(), lr=0.05)
rng = np.random.default_rng(420 + rank)
log = []
for rnd in range(3):
    for _ in range(2):
        x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
        loss = F.mse_loss(net(x), x[:, :1] * 2)
        opt.zero_grad(); loss.backward(); opt.step()
    with meshflow.no_grad():
        vec = parameters_to_vector(net.parameters())
        before = vec.sum().item()
        dist.all_reduce(vec)
        vec /= world
        vector_to_parameters(vec, net.parameters())
    log.append([round(before, 4), round(vec.sum().item(), 4)])
print("RESULT", rank, json.dumps({"log": log, "n": parameters_to_vector(net.parameters()).numel()}))
dist.destroy_process_group()
