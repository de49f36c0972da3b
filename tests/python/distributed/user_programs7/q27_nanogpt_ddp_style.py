import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    dist.init_process_group(backend="gloo")
    ddp_rank = int(os.environ["RANK"])
    ddp_local_rank = int(os.environ["LOCAL_RANK"])
    ddp_world_size = int(os.environ["WORLD_SIZE"])
    master_process = ddp_rank == 0
else:
    ddp_rank, ddp_local_rank, ddp_world_size, master_process = 0, 0, 1, True
device = "cpu"
mf.manual_seed(27)
model = nn.Sequential(nn.Embedding(20, 8), nn.Flatten(), nn.Linear(8 * 4, 20)).to(device)
raw = model
if ddp:
    model = DDP(model)
opt = mf.optim.AdamW(model.parameters(), lr=3e-3)
rng = np.random.default_rng(27)
data = rng.integers(0, 20, (5, 8, 5))
losses = []
for it in range(5):
    chunk = data[it]
    per = len(chunk) // ddp_world_size
    mine = chunk[ddp_rank * per:(ddp_rank + 1) * per]
    x = mf.tensor(mine[:, :4], device=device); y = mf.tensor(mine[:, 4], device=device)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    l = loss.detach().clone()
    if ddp:
        dist.all_reduce(l, op=dist.ReduceOp.AVG)
    losses.append(l.item())
print("RESULT", json.dumps({"losses": losses, "w": raw[2].weight.sum().item()}))
if ddp:
    dist.destroy_process_group()
