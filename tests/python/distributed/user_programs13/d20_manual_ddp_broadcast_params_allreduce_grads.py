import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
meshflow.manual_seed(rank)
model = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))
if rank == 0:
    g = np.random.default_rng(20)
    with meshflow.no_grad():
        for p in model.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
for p in model.parameters():
    dist.broadcast(p.data, src=0)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(200 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 3))
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad.data, op=dist.ReduceOp.SUM)
        p.grad.data /= world
    opt.step()
    losses.append(round(loss.item(), 4))
flat = meshflow.cat([p.detach().flatten() for p in model.parameters()])
check = flat.clone()
dist.all_reduce(check, op=dist.ReduceOp.MAX)
print("RESULT", rank, json.dumps({"losses": losses, "sum": round(flat.sum().item(), 4), "in_sync": meshflow.equal(check, flat)}))
dist.destroy_process_group()
