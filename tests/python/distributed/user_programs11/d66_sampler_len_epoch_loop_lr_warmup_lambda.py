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
from meshflow.utils.data import DataLoader, DistributedSampler, TensorDataset
g = np.random.default_rng(66)
ds = TensorDataset(meshflow.from_numpy(g.standard_normal((10, 3)).astype(np.float32)), meshflow.from_numpy(g.standard_normal((10, 1)).astype(np.float32)))
sampler = DistributedSampler(ds, shuffle=True, seed=0, drop_last=True)
loader = DataLoader(ds, batch_size=2, sampler=sampler, shuffle=False)
net = nn.Linear(3, 1); init_(net, 66)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.2)
total = 2 * len(loader)
sched = meshflow.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 3))
lrs = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    for x, y in loader:
        loss = F.mse_loss(model(x), y); opt.zero_grad(); loss.backward(); opt.step(); sched.step(); lrs.append(round(sched.get_last_lr()[0], 6))
print("RESULT", rank, json.dumps({"steps": total, "lrs": lrs, "w": sums(net)}))
dist.destroy_process_group()
