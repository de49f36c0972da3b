import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.utils.data import DataLoader, TensorDataset, DistributedSampler

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
g = np.random.default_rng(20)
X = meshflow.from_numpy(g.standard_normal((9, 3)).astype(np.float32))
ds = TensorDataset(X)
model = nn.Sequential(nn.Linear(3, 2), nn.Softmax(-1))
with meshflow.no_grad():
    model[0].weight.copy_(meshflow.tensor([[0.5, -0.5, 1.0], [-1.0, 0.25, 0.5]])); model[0].bias.fill_(0.1)
sampler = DistributedSampler(ds, shuffle=False)
outs = []
model.eval()
with meshflow.no_grad():
    for (x,) in DataLoader(ds, batch_size=4, sampler=sampler):
        outs.append(model(x))
local = meshflow.cat(outs)
gathered = [meshflow.zeros_like(local) for _ in range(world)]
dist.all_gather(gathered, local)
# DistributedSampler interleaves: sample i went to rank i % world
stacked = meshflow.stack(gathered, 1).reshape(-1, 2)[:len(ds)]
with meshflow.no_grad():
    ref = model(X)
print("RESULT", rank, json.dumps({"n": stacked.shape[0], "match": meshflow.allclose(stacked, ref, atol=1e-6),
                                  "col0": [round(v, 5) for v in stacked[:, 0].tolist()], "local": local.shape[0]}))
dist.destroy_process_group()
