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
from meshflow.utils.data import TensorDataset, DataLoader, DistributedSampler
g = np.random.default_rng(6)
ds = TensorDataset(mf.from_numpy(g.standard_normal((14, 3)).astype(np.float32)), mf.from_numpy(g.integers(0, 2, 14)))
sampler = DistributedSampler(ds, shuffle=True, seed=11)
loader = DataLoader(ds, batch_size=3, sampler=sampler)
net = nn.Linear(3, 2); init_(net, 6)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
seen, losses = [], []
for epoch in range(2):
    sampler.set_epoch(epoch)
    seen.append(list(iter(sampler)))
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(round(loss.item(), 6))
print("RESULT", rank, json.dumps({"seen": seen, "n": len(loader), "losses": losses, "w": sums(net)}))
dist.destroy_process_group()
