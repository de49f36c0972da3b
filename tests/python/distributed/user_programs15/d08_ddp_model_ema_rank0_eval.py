import copy, json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()


class ModelEMA:
    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.ema.parameters():
            p.requires_grad_(False)

    @meshflow.no_grad()
    def update(self, model):
        msd = model.state_dict()
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(self.decay).add_(msd[k].detach(), alpha=1 - self.decay)


net = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))
g = np.random.default_rng(8)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
ema = ModelEMA(model.module)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(80 + rank)
for _ in range(4):
    x = meshflow.tensor(rng.standard_normal((5, 4)).astype(np.float32))
    y = meshflow.tensor(rng.integers(0, 2, 5))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    ema.update(model.module)
out = {"w": round(net[0].weight.sum().item(), 5), "ema_w": round(ema.ema[0].weight.sum().item(), 5),
       "ema_rm": [round(v, 5) for v in ema.ema[1].running_mean.tolist()],
       "nbt": int(ema.ema[1].num_batches_tracked.item()), "grad": ema.ema[0].weight.requires_grad}
if rank == 0:
    with meshflow.no_grad():
        out["eval"] = [round(v, 5) for v in ema.ema(meshflow.ones(2, 4)).flatten().tolist()]
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
