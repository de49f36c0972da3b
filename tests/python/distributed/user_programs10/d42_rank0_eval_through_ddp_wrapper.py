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
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)); init_(net, 42)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(4200 + rank)
res = {}
for epoch in range(2):
    model.train()
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        model.eval()
        with mf.no_grad():
            res[f"eval{epoch}"] = model(mf.ones(1, 3)).tolist()
    dist.barrier()
res["w"] = sums(net)
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
