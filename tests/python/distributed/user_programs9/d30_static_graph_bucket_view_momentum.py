import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Linear(4, 4), nn.SiLU(), nn.Linear(4, 2)); init_(net, 30)
model = DDP(net, static_graph=True, gradient_as_bucket_view=True, bucket_cap_mb=1)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-3)
rng = np.random.default_rng(300 + rank)
for _ in range(4):
    x = mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))
    loss = F.huber_loss(model(x), x[:, :2])
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps([p.sum().item() for p in net.parameters()]))
dist.destroy_process_group()
