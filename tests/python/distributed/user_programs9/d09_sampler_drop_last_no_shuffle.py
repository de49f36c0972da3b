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
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler
X = mf.arange(0, 9, dtype=mf.float32).reshape(9, 1)
ds = TensorDataset(X, X * 2 + 1)
sampler = DistributedSampler(ds, shuffle=False, drop_last=True)
loader = DataLoader(ds, batch_size=3, sampler=sampler, shuffle=False)
net = nn.Linear(1, 1)
with mf.no_grad():
    net.weight.fill_(0.5); net.bias.zero_()
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.01)
seen = []
for x, y in loader:
    seen.append(x.flatten().tolist())
    loss = F.l1_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"seen": seen, "n": len(sampler), "w": net.weight.item(), "b": net.bias.item()}))
dist.destroy_process_group()
