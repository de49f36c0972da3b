import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
g = np.random.default_rng(40 + rank)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
with meshflow.no_grad():
    for p in model.parameters():
        dist.broadcast(p, src=0)          # the parameter itself, a leaf that requires grad
for t in model.state_dict().values():
    dist.broadcast(t, src=0)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(4000 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad.data, op=dist.ReduceOp.SUM); p.grad.data.div_(world)
    opt.step()
    lt = loss.detach().clone(); dist.all_reduce(lt, op=dist.ReduceOp.AVG); losses.append(round(lt.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "req": all(p.requires_grad for p in model.parameters()),
                                  "w": [round(p.sum().item(), 5) for p in model.parameters()],
                                  "rm": [round(v, 5) for v in model[1].running_mean.tolist()]}))
dist.destroy_process_group()
