import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 1))
g = np.random.default_rng(rank)  # every rank starts different
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
before = sum(p.sum().item() for p in model.parameters())
for p in model.parameters():
    dist.broadcast(p.data, src=0)
for b in model.buffers():
    dist.broadcast(b, src=0)
after = sum(p.sum().item() for p in model.parameters())
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(50 + rank)
losses = []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
    y = meshflow.from_numpy(rng.standard_normal((5, 1)).astype(np.float32))
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= world
    opt.step()
    l = loss.detach().clone(); dist.all_reduce(l); losses.append(round(l.item() / world, 5))
print("RESULT", rank, json.dumps({"before": round(before, 4), "after": round(after, 4), "losses": losses,
                                  "w": [round(p.sum().item(), 5) for p in model.parameters()]}))
dist.destroy_process_group()
