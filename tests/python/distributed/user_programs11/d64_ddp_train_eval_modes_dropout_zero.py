import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(p=0.0), nn.ReLU(), nn.BatchNorm1d(8), nn.Linear(8, 2)); init_(net, 64)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
rng = np.random.default_rng(640 + rank)
vals = []
for epoch in range(2):
    model.train()
    for _ in range(2):
        x = meshflow.from_numpy(rng.standard_normal((6, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 6))
        loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with meshflow.no_grad():
        vx = meshflow.from_numpy(np.random.default_rng(64).standard_normal((5, 4)).astype(np.float32))
        v = model(vx).sum()
    dist.all_reduce(v); vals.append(round(v.item() / world, 5))
print("RESULT", rank, json.dumps({"training": model.training, "module_training": net.training, "vals": vals, "rm": round(net[3].running_mean.sum().item(), 5)}))
dist.destroy_process_group()
