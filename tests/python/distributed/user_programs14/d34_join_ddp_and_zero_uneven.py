import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.optim import ZeroRedundancyOptimizer
from meshflow.distributed.algorithms.join import Join

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
g = np.random.default_rng(17)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=meshflow.optim.SGD, lr=0.05)
rng = np.random.default_rng(1700 + rank)
data = [(meshflow.from_numpy(rng.standard_normal((3, 3)).astype(np.float32)),
         meshflow.from_numpy(rng.standard_normal((3, 1)).astype(np.float32))) for _ in range(2 + 2 * rank)]
losses = []
with Join([model, opt]):
    for x, y in data:
        loss = F.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"n": len(losses), "losses": losses,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
