import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.Sigmoid(), nn.Linear(5, 2))
g = np.random.default_rng(53)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
x = meshflow.from_numpy(np.random.default_rng(530 + rank).standard_normal((4, 3)).astype(np.float32))
loss = model(x).pow(2).sum()
loss.backward(); opt.step()
model.eval()
with meshflow.inference_mode():
    a = model(meshflow.ones(2, 3))
    b = model.module(meshflow.ones(2, 3))
preds = meshflow.zeros(2 * world, 2)
dist.all_gather_into_tensor(preds, a.clone())
print("RESULT", rank, json.dumps({"a": [round(v, 4) for v in a.flatten().tolist()], "same": meshflow.equal(a, b),
                                  "inference": a.is_inference(), "rm": [round(v, 4) for v in net[1].running_mean.tolist()],
                                  "gathered": round(preds.sum().item(), 4)}))
dist.destroy_process_group()
