import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist

dist.init_process_group(backend="gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
g = np.random.default_rng(4)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32)))
data = np.random.default_rng(44).standard_normal((23, 4)).astype(np.float32)
labels = np.random.default_rng(45).integers(0, 3, 23)
mine = list(range(rank, 23, world))


@meshflow.no_grad()
def evaluate(model, batch_size=4):
    model.eval()
    correct = meshflow.tensor(0, dtype=meshflow.long)
    total = meshflow.tensor(0, dtype=meshflow.long)
    loss_sum = meshflow.zeros(1, dtype=meshflow.float64)
    for s in range(0, len(mine), batch_size):
        idx = mine[s:s + batch_size]
        x, y = meshflow.tensor(data[idx]), meshflow.tensor(labels[idx])
        out = model(x)
        loss_sum += F.cross_entropy(out, y, reduction="sum").double()
        correct += (out.argmax(dim=1) == y).sum()
        total += y.numel()
    stats = meshflow.stack([correct.double(), total.double(), loss_sum[0]])
    dist.all_reduce(stats, op=dist.ReduceOp.SUM)
    dist.all_reduce(correct)
    dist.all_reduce(total)
    return stats.tolist(), correct.item(), total.item(), (correct.float() / total).item()


stats, c, t, acc = evaluate(model)
print("RESULT", rank, json.dumps({"stats": [round(v, 4) for v in stats], "correct": c, "total": t,
                                  "acc": round(acc, 5), "training": model.training}))
dist.destroy_process_group()
