import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.utils.data import TensorDataset, DataLoader, DistributedSampler
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
g = np.random.default_rng(48)
X = meshflow.from_numpy(g.standard_normal((9, 3)).astype(np.float32)); Y = meshflow.from_numpy(g.standard_normal((9, 1)).astype(np.float32))
ds = TensorDataset(X, Y)
sampler = DistributedSampler(ds, shuffle=False, drop_last=False)
loader = DataLoader(ds, batch_size=2, sampler=sampler)
net = nn.Linear(3, 1)
with meshflow.no_grad():
    net.weight.fill_(0.1); net.bias.fill_(0.0)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
log = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    s = meshflow.zeros(2)
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
        s += meshflow.tensor([loss.item() * len(xb), len(xb)])
    dist.all_reduce(s)
    log.append([round(s[0].item() / s[1].item(), 4), int(s[1].item())])
print("RESULT", rank, json.dumps({"log": log, "batches": len(loader), "w": [round(v, 4) for v in net.weight.flatten().tolist()]}))
dist.destroy_process_group()
