import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.utils.data import TensorDataset, DataLoader
from meshflow.utils.data.distributed import DistributedSampler

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
g = np.random.default_rng(1)
X = meshflow.from_numpy(g.standard_normal((11, 3)).astype(np.float32))
Y = meshflow.from_numpy(g.integers(0, 3, 11))
ds = TensorDataset(X, Y)
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
loader = DataLoader(ds, batch_size=2, sampler=sampler)
model = nn.Linear(3, 3)
with meshflow.no_grad():
    model.weight.copy_(meshflow.from_numpy(g.standard_normal((3, 3)).astype(np.float32))); model.bias.fill_(0.1)
model.eval()
correct = meshflow.zeros(1); total = meshflow.zeros(1); loss_sum = meshflow.zeros(1)
sizes = []
with meshflow.no_grad():
    for xb, yb in loader:
        out = model(xb)
        sizes.append(len(xb))
        loss_sum += nn.functional.cross_entropy(out, yb, reduction="sum")
        correct += (out.argmax(dim=1) == yb).sum()
        total += yb.numel()
for t in (correct, total, loss_sum):
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
print("RESULT", rank, json.dumps({"indices": list(sampler), "sizes": sizes, "acc": round((correct / total).item(), 4),
                                  "total": int(total.item()), "loss": round((loss_sum / total).item(), 4)}))
dist.destroy_process_group()
