import json, math
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Linear(3, 1)
with meshflow.no_grad():
    net.weight.copy_(meshflow.tensor([[0.3, -0.1, 0.2]])); net.bias.fill_(0.05)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(30 + rank)
skipped, losses, norms = [], [], []
for step in range(4):
    x = meshflow.tensor(rng.standard_normal((4, 3)).astype(np.float32))
    if step == 2 and rank == 1:
        x[0, 0] = float("inf")
    loss = F.mse_loss(model(x), meshflow.zeros(4, 1))
    bad = meshflow.tensor([0.0 if math.isfinite(loss.item()) else 1.0])
    dist.all_reduce(bad, op=dist.ReduceOp.MAX)
    opt.zero_grad()
    if bad.item() > 0:
        skipped.append(step)
        continue
    loss.backward()
    norms.append(round(float(nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)), 5))
    opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"skipped": skipped, "losses": losses, "norms": norms,
                                  "w": [round(v, 5) for v in net.weight.flatten().tolist()]}))
dist.destroy_process_group()
