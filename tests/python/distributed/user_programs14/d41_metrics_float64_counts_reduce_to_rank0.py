import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
g = np.random.default_rng(21)
model = nn.Linear(5, 4)
with meshflow.no_grad():
    model.weight.copy_(meshflow.from_numpy(g.standard_normal((4, 5)).astype(np.float32))); model.bias.zero_()
rng = np.random.default_rng(2100 + rank)
correct = meshflow.zeros(4, dtype=meshflow.float64)   # per class
total = meshflow.zeros(4, dtype=meshflow.float64)
loss_sum = meshflow.zeros((), dtype=meshflow.float64)
with meshflow.no_grad():
    for _ in range(3):
        x = meshflow.from_numpy(rng.standard_normal((7, 5)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 4, 7))
        logits = model(x)
        loss_sum += nn.functional.cross_entropy(logits, y, reduction="sum").double()
        pred = logits.argmax(1)
        total += meshflow.bincount(y, minlength=4).double()
        correct += meshflow.bincount(y[pred == y], minlength=4).double()
stats = meshflow.cat([correct, total, loss_sum.view(1)])
dist.reduce(stats, dst=0)
if rank == 0:
    c, t, l = stats[:4], stats[4:8], stats[8]
    res = {"per_class": [round(v, 5) for v in (c / t.clamp(min=1)).tolist()], "acc": round((c.sum() / t.sum()).item(), 5),
           "loss": round((l / t.sum()).item(), 5), "dtype": str(stats.dtype)}
else:
    res = {"dtype": str(stats.dtype)}
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
