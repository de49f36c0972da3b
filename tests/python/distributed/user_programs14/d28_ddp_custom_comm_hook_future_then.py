import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
calls = []
def mean_hook(state, bucket):
    calls.append(bucket.buffer().numel())
    state["n"] += 1
    fut = dist.all_reduce(bucket.buffer(), async_op=True).get_future()
    return fut.then(lambda f: f.value()[0] / world)
net = nn.Sequential(nn.Linear(3, 5), nn.Sigmoid(), nn.Linear(5, 2))
g = np.random.default_rng(13)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.6).astype(np.float32)))
model = DDP(net)
state = {"n": 0}
model.register_comm_hook(state, mean_hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.2)
rng = np.random.default_rng(1300 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "calls": state["n"] >= 3, "numel": sum(calls[-1:]) > 0,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
