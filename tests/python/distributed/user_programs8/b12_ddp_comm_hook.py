import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.algorithms.ddp_comm_hooks import default_hooks
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()

def make():
    net = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 2))
    rng = np.random.default_rng(5)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
    return net

calls = []
def sum_hook(state, bucket):
    calls.append(len(bucket.gradients()))
    t = bucket.buffer()
    fut = dist.all_reduce(t, async_op=True).get_future()
    return fut.then(lambda f: f.value()[0] * state)

X = np.random.default_rng(6).standard_normal((3, 4, 3)).astype(np.float32)
res = {}
for name in ["default", "custom"]:
    net = make()
    model = DDP(net)
    if name == "default":
        model.register_comm_hook(None, default_hooks.allreduce_hook)
    else:
        model.register_comm_hook(0.25, sum_hook)
    opt = mf.optim.SGD(model.parameters(), lr=0.3)
    for i in range(3):
        x = mf.from_numpy(X[i, rank * 2:(rank + 1) * 2])
        loss = model(x).pow(2).sum()
        opt.zero_grad(); loss.backward(); opt.step()
    res[name] = net[2].weight.tolist()
res["called"] = len(calls) > 0
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
