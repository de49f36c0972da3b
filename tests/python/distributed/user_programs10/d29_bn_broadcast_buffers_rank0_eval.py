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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
net = nn.Sequential(nn.Linear(4, 6, bias=False), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2)); init_(net, 29)
model = DDP(net, broadcast_buffers=True)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
rng = np.random.default_rng(2900 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 5))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
res = {"rm": net[1].running_mean.tolist(), "nbt": net[1].num_batches_tracked.item()}
if rank == 0:
    net.eval()
    with mf.no_grad():
        res["eval"] = net(mf.linspace(-1, 1, 8).reshape(2, 4)).tolist()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
