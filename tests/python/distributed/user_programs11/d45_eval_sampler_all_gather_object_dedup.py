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
g = np.random.default_rng(45)
X = meshflow.from_numpy(g.standard_normal((9, 3)).astype(np.float32)); Y = meshflow.from_numpy(g.integers(0, 2, 9))
ds = TensorDataset(meshflow.arange(9), X, Y)
net = nn.Linear(3, 2); init_(net, 45)
model = DDP(net); model.eval()
loader = DataLoader(ds, batch_size=4, sampler=DistributedSampler(ds, shuffle=False))
preds = {}
with meshflow.no_grad():
    for idx, x, y in loader:
        for i, p in zip(idx.tolist(), model(x).argmax(1).tolist()):
            preds[i] = p
allp = [None] * world
dist.all_gather_object(allp, preds)
merged = {}
for d in allp:
    merged.update(d)
acc = sum(int(merged[i] == int(Y[i])) for i in range(9)) / 9
print("RESULT", rank, json.dumps({"local_n": len(preds), "merged": [merged[i] for i in range(9)], "acc": acc}))
dist.destroy_process_group()
