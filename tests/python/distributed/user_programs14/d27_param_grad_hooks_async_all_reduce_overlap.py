import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
g = np.random.default_rng(12)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
pending = []
def hook(p):
    pending.append(dist.all_reduce(p.grad, async_op=True))
for p in net.parameters():
    p.register_post_accumulate_grad_hook(hook)
opt = meshflow.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(1200 + rank)
losses, counts = [], []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 5))
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y); loss.backward()
    counts.append(len(pending))
    for w in pending:
        w.wait()
    pending.clear()
    for p in net.parameters():
        p.grad.div_(world)
    opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "counts": counts,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
