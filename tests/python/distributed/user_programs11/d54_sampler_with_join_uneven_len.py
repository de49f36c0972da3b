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
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler
g = np.random.default_rng(54)
ds = TensorDataset(meshflow.from_numpy(g.standard_normal((11, 3)).astype(np.float32)), meshflow.from_numpy(g.integers(0, 2, 11)))
sampler = DistributedSampler(ds, shuffle=False)
idx = list(sampler)[: 5 - rank * 2]
loader = DataLoader(meshflow.utils.data.Subset(ds, idx), batch_size=2)
net = nn.Linear(3, 2); init_(net, 54)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
n = 0
with model.join():
    for x, y in loader:
        loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step(); n += 1
print("RESULT", rank, json.dumps({"idx": idx, "n": n, "w": sums(net)}))
dist.destroy_process_group()
