import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Linear(3, 1)
with mf.no_grad():
    net.weight.copy_(mf.tensor([[0.2, -0.1, 0.4]])); net.bias.fill_(0.0)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
losses = []
for step in range(3):
    part = mf.empty(4, 3)
    if rank == 0:
        full = mf.from_numpy(np.random.default_rng(step).standard_normal((world * 4, 3)).astype(np.float32))
        dist.scatter(part, list(full.chunk(world)), src=0)
    else:
        dist.scatter(part, None, src=0)
    loss = (net(part) - part[:, :1]).pow(2).mean()
    opt.zero_grad(); loss.backward()
    for p in net.parameters():
        dist.all_reduce(p.grad, op=dist.ReduceOp.SUM)
        p.grad /= world
    opt.step()
    l = loss.detach().clone(); dist.all_reduce(l); losses.append(l.item() / world)
print("RESULT", rank, json.dumps({"losses": losses, "w": net.weight.tolist()}))
dist.destroy_process_group()
