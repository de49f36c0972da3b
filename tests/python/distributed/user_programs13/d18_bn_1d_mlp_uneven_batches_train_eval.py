import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(5, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 12), nn.BatchNorm1d(12, momentum=None), nn.ReLU(), nn.Linear(12, 1))
g = np.random.default_rng(18)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05, nesterov=True, momentum=0.9)
rng = np.random.default_rng(180 + rank)
losses, evals = [], []
for epoch in range(3):
    model.train()
    for _ in range(2):
        n = 3 + rank
        x = meshflow.from_numpy((rng.standard_normal((n, 5)) * (1 + rank)).astype(np.float32))
        loss = F.smooth_l1_loss(model(x).squeeze(1), x[:, 0])
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(round(loss.item(), 4))
    model.eval()
    with meshflow.no_grad():
        evals.append(round(model(meshflow.linspace(-1, 1, 10).view(2, 5)).sum().item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "evals": evals, "rm1": round(net[1].running_mean.sum().item(), 4),
                                  "rv4": round(net[4].running_var.sum().item(), 4), "nbt": int(net[4].num_batches_tracked)}))
dist.destroy_process_group()
