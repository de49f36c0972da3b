import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Linear(5, 3)
rng = np.random.default_rng(12)
with mf.no_grad():
    net.weight.copy_(mf.from_numpy(rng.standard_normal((3, 5)).astype(np.float32)))
    net.bias.zero_()
model = DDP(net)
X = mf.from_numpy(rng.standard_normal((2, 7, 5)).astype(np.float32))
Y = mf.from_numpy(rng.integers(0, 3, (2, 7)))
model.eval()
correct = mf.tensor(0); total = mf.tensor(0); loss_sum = mf.tensor(0.0)
with mf.no_grad():
    xb, yb = X[rank], Y[rank]
    out = model(xb)
    correct += (out.argmax(1) == yb).sum()
    total += yb.numel()
    loss_sum += nn.functional.cross_entropy(out, yb, reduction="sum")
stats = mf.stack([correct.float(), total.float(), loss_sum])
dist.all_reduce(stats, op=dist.ReduceOp.SUM)
acc = (stats[0] / stats[1]).item()
avg = (stats[2] / stats[1]).item()
cnt = correct.clone()
dist.all_reduce(cnt)
print("RESULT", rank, json.dumps({"acc": acc, "avg": avg, "local": [correct.item(), total.item()], "cnt": cnt.item(), "dtype": str(cnt.dtype)}))
dist.destroy_process_group()
