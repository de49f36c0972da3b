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
from meshflow.utils.data import DataLoader, Dataset
from meshflow.utils.data.distributed import DistributedSampler
class Pairs(Dataset):
    def __init__(self, n):
        g = np.random.default_rng(123)
        self.x = g.standard_normal((n, 4)).astype(np.float32); self.y = g.integers(0, 3, n)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return {"x": meshflow.from_numpy(self.x[i]), "y": int(self.y[i]), "i": i}
ds = Pairs(13)
sampler = DistributedSampler(ds, shuffle=True, seed=3)
loader = DataLoader(ds, batch_size=3, sampler=sampler, drop_last=False)
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)); init_(net, 12)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
seen = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    for batch in loader:
        loss = F.cross_entropy(model(batch["x"]), batch["y"])
        opt.zero_grad(); loss.backward(); opt.step()
        seen.append(batch["i"].tolist())
print("RESULT", rank, json.dumps({"n_batches": len(loader), "seen": seen, "w": sums(net)}))
dist.destroy_process_group()
