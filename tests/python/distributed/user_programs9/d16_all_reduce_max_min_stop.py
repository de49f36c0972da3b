import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Linear(2, 1); init_(net, 16)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.3)
rng = np.random.default_rng(160 + rank)
history = []
for epoch in range(10):
    x = mf.from_numpy(rng.standard_normal((4, 2)).astype(np.float32))
    loss = F.mse_loss(model(x), x[:, :1] - x[:, 1:])
    opt.zero_grad(); loss.backward(); opt.step()
    worst = loss.detach().clone(); best = loss.detach().clone()
    dist.all_reduce(worst, op=dist.ReduceOp.MAX)
    dist.all_reduce(best, op=dist.ReduceOp.MIN)
    history.append([worst.item(), best.item()])
    stop = mf.tensor([1 if worst.item() < 0.05 else 0])
    dist.all_reduce(stop)
    if stop.item() > 0:
        break
print("RESULT", rank, json.dumps({"epochs": epoch + 1, "h": history}))
dist.destroy_process_group()
