import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
calls = {"n": 0}
def mean_hook(state, bucket):
    state["n"] += 1
    t = bucket.buffer()
    t.div_(dist.get_world_size())
    fut = dist.all_reduce(t, async_op=True).get_future()
    return fut.then(lambda f: f.value()[0])
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)); init_(net, 9)
model = DDP(net)
model.register_comm_hook(calls, mean_hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.2)
rng = np.random.default_rng(100 + rank)
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((5, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((5, 1)).astype(np.float32))
    loss = F.l1_loss(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"called": calls["n"] > 0, "g": [round(p.grad.sum().item(), 5) for p in net.parameters()], "w": sums(net)}))
dist.destroy_process_group()
