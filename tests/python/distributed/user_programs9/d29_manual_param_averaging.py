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
net = nn.Sequential(nn.Linear(2, 3), nn.Sigmoid(), nn.Linear(3, 1)); init_(net, 29)
opt = mf.optim.SGD(net.parameters(), lr=0.5)
rng = np.random.default_rng(290 + rank)
for step in range(6):
    x = mf.from_numpy(rng.standard_normal((4, 2)).astype(np.float32))
    loss = F.binary_cross_entropy_with_logits(net(x).squeeze(1), (x[:, 0] > 0).float())
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 2 == 1:
        with mf.no_grad():
            for p in net.parameters():
                dist.all_reduce(p.data, op=dist.ReduceOp.SUM)
                p.data /= world
print("RESULT", rank, json.dumps([p.sum().item() for p in net.parameters()]))
dist.destroy_process_group()
