import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
local_rank = int(os.environ["LOCAL_RANK"]); rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group(backend="gloo", init_method="env://", world_size=world, rank=rank)
device = mf.device("cpu")
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)).to(device)
init_(model, 1)
ddp = DDP(model, device_ids=None)
opt = mf.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(100 + rank)
logged = []
for step in range(4):
    x = mf.from_numpy(rng.standard_normal((6, 4)).astype(np.float32)).to(device)
    y = mf.from_numpy(rng.integers(0, 2, 6)).to(device)
    loss = F.cross_entropy(ddp(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    avg = loss.detach().clone()
    dist.all_reduce(avg)
    logged.append(avg.item() / world)
if local_rank == 0:
    print("RESULT", rank, json.dumps({"logged": logged}))
print("RESULT", rank, json.dumps({"w": model[2].weight.sum().item(), "lr": world == 2}))
dist.destroy_process_group()
