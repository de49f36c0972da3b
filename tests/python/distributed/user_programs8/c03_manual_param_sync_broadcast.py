import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mf.manual_seed(100 + rank)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
if rank == 0:
    rng = np.random.default_rng(42)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
for p in net.parameters():
    dist.broadcast(p.data, src=0)
opt = mf.optim.SGD(net.parameters(), lr=0.05)
ema = [p.detach().clone() for p in net.parameters()]
X = np.random.default_rng(43).standard_normal((3, 4, 3)).astype(np.float32)
for i in range(3):
    x = mf.from_numpy(X[i, rank * 2:(rank + 1) * 2])
    loss = (net(x) - 1).abs().mean()
    opt.zero_grad(); loss.backward()
    for p in net.parameters():
        dist.all_reduce(p.grad, op=dist.ReduceOp.SUM)
        p.grad.div_(world)
    opt.step()
    with mf.no_grad():
        for e, p in zip(ema, net.parameters()):
            e.mul_(0.9).add_(p, alpha=0.1)
print("RESULT", rank, json.dumps({"ema": ema[2].tolist(), "w": net[2].weight.tolist()}))
dist.destroy_process_group()
