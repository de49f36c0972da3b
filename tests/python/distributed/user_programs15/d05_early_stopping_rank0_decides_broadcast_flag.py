import json
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
    net.weight.copy_(meshflow.tensor([[0.5, -0.2, 0.1]]))
    net.bias.fill_(0.3)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.3)
rng = np.random.default_rng(5 + rank)
val_x = meshflow.tensor(np.random.default_rng(55).standard_normal((16, 3)).astype(np.float32))
val_y = val_x.sum(1, keepdim=True) * 0.0 + 1.0
best, bad, patience, stopped_at, history = float("inf"), 0, 2, None, []
for epoch in range(30):
    x = meshflow.tensor(rng.standard_normal((8, 3)).astype(np.float32))
    loss = F.mse_loss(model(x), x[:, :1] * 2.0)
    opt.zero_grad(); loss.backward(); opt.step()
    with meshflow.no_grad():
        val = F.mse_loss(model.module(val_x), val_y)
    dist.all_reduce(val)
    val = val.item() / dist.get_world_size()
    history.append(round(val, 4))
    stop = meshflow.zeros(1)
    if rank == 0:
        if val < best - 1e-3:
            best, bad = val, 0
        else:
            bad += 1
        if bad >= patience:
            stop += 1
    dist.broadcast(stop, src=0)
    if stop.item() == 1:
        stopped_at = epoch
        break
print("RESULT", rank, json.dumps({"stopped_at": stopped_at, "history": history}))
dist.destroy_process_group()
