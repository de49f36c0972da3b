import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
rng = np.random.default_rng(19)
net = nn.Linear(3, 2)
with mf.no_grad():
    net.weight.copy_(mf.from_numpy(rng.standard_normal((2, 3)).astype(np.float32))); net.bias.zero_()
X = mf.from_numpy(rng.standard_normal((10, 3)).astype(np.float32))
ds = TensorDataset(X, mf.arange(10))
loader = DataLoader(ds, batch_size=4, sampler=DistributedSampler(ds, shuffle=False))
preds, ids = [], []
with mf.no_grad():
    for x, i in loader:
        preds.append(net(x).argmax(1)); ids.append(i)
preds, ids = mf.cat(preds), mf.cat(ids)
allp = [mf.zeros_like(preds) for _ in range(world)]
alli = [mf.zeros_like(ids) for _ in range(world)]
dist.all_gather(allp, preds); dist.all_gather(alli, ids)
order = mf.cat(alli).argsort(stable=True)
merged = mf.cat(allp)[order].tolist()
print("RESULT", rank, json.dumps({"merged": merged, "ids": mf.cat(alli).tolist()}))
dist.destroy_process_group()
