import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))
g = np.random.default_rng(32)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
ema = AveragedModel(model.module, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(3200 + rank)
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((6, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 6))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
    ema.update_parameters(model.module)
out = {"n": int(ema.n_averaged)}
if rank == 0:
    ema.eval()
    with meshflow.no_grad():
        out["ema"] = [round(v, 5) for v in ema(meshflow.ones(2, 3)).flatten().tolist()]
    out["w"] = round(ema.module[0].weight.sum().item(), 5)
dist.barrier()
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
