import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (2,))
model = nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.Linear(8, 6), nn.LayerNorm(6), nn.Linear(6, 3))
g = np.random.default_rng(45)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel(use_local_output=False)})
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(450)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 4))
    h = model[2](model[1](model[0](x)))          # a Replicate DTensor
    h = (h * 2).to_local()                        # an op result's local tensor
    loss = F.cross_entropy(model[4](model[3](h)), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "w0": round(model[0].weight.full_tensor().sum().item(), 4),
                                  "w2": round(model[2].weight.full_tensor().abs().sum().item(), 4),
                                  "ln": round(model[3].weight.sum().item(), 4), "head": round(model[4].weight.sum().item(), 4)}))
dist.destroy_process_group()
