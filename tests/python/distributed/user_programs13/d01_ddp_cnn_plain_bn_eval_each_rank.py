import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
model = nn.Sequential(
    nn.Conv2d(1, 6, 3), nn.BatchNorm2d(6), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(6, 12, 3), nn.BatchNorm2d(12), nn.ReLU(),
    nn.Flatten(), nn.Linear(12 * 2 * 2, 4))
g = np.random.default_rng(1)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.2).astype(np.float32)))
model = DDP(model)
opt = meshflow.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(100 + rank)
hist = []
for epoch in range(3):
    model.train()
    for _ in range(2):
        x = meshflow.from_numpy(rng.standard_normal((5, 1, 10, 10)).astype(np.float32))
        y = meshflow.from_numpy(rng.integers(0, 4, 5))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with meshflow.no_grad():
        xv = meshflow.from_numpy(np.random.default_rng(7 + epoch).standard_normal((6, 1, 10, 10)).astype(np.float32))
        yv = meshflow.from_numpy(np.random.default_rng(8 + epoch).integers(0, 4, 6))
        out = model(xv)
        vloss = F.cross_entropy(out, yv, reduction="sum")
        correct = (out.argmax(1) == yv).sum()
        stats = meshflow.stack([vloss, correct.float(), meshflow.tensor(6.0)])
        dist.all_reduce(stats)
    hist.append([round(v, 4) for v in stats.tolist()])
bn = model.module[1]
print("RESULT", rank, json.dumps({"hist": hist, "rm": [round(v, 4) for v in bn.running_mean.tolist()],
                                  "loss": round(loss.item(), 4)}))
dist.destroy_process_group()
