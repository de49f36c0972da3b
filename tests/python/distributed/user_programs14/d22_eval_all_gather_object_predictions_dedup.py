import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.utils.data import DataLoader, TensorDataset, DistributedSampler

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
g = np.random.default_rng(9)
X = meshflow.from_numpy(g.standard_normal((11, 4)).astype(np.float32))
Y = meshflow.from_numpy(g.integers(0, 3, 11))
ds = TensorDataset(meshflow.arange(11), X, Y)
model = nn.Linear(4, 3)
with meshflow.no_grad():
    model.weight.copy_(meshflow.from_numpy(g.standard_normal((3, 4)).astype(np.float32))); model.bias.zero_()
model.eval()
loader = DataLoader(ds, batch_size=3, sampler=DistributedSampler(ds, shuffle=False))
preds = {}
with meshflow.no_grad():
    for idx, x, y in loader:
        for i, p in zip(idx.tolist(), model(x).argmax(1).tolist()):
            preds[i] = p
everything = [None] * world
dist.all_gather_object(everything, preds)
merged = {}
for d in everything:
    merged.update(d)
acc = sum(int(merged[i] == Y[i].item()) for i in range(11)) / 11
print("RESULT", rank, json.dumps({"n": len(merged), "acc": round(acc, 5), "preds": [merged[i] for i in range(11)],
                                  "mine": sorted(preds)}))
dist.destroy_process_group()
