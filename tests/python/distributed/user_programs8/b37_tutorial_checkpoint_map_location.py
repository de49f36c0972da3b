import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mf.manual_seed(rank)  # per-rank init: rank 0's weights win through the checkpoint
net = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))
if rank == 0:
    rng = np.random.default_rng(28)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
ddp_model = DDP(net)
d = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(d, src=0)
CHECKPOINT_PATH = os.path.join(d[0], "model.checkpoint")
if rank == 0:
    mf.save(ddp_model.state_dict(), CHECKPOINT_PATH)
dist.barrier()
map_location = {"cuda:0": "cpu"}
ddp_model.load_state_dict(mf.load(CHECKPOINT_PATH, map_location=map_location, weights_only=True))
loss_fn = nn.MSELoss()
optimizer = mf.optim.SGD(ddp_model.parameters(), lr=0.001)
optimizer.zero_grad()
x = mf.from_numpy(np.random.default_rng(29).standard_normal((4, 4)).astype(np.float32))[rank * 2:(rank + 1) * 2]
outputs = ddp_model(x)
labels = mf.ones(2, 2)
loss_fn(outputs, labels).backward()
optimizer.step()
dist.barrier()
if rank == 0:
    os.remove(CHECKPOINT_PATH); os.rmdir(d[0])
print("RESULT", rank, json.dumps({"w": net[2].weight.tolist(), "b": net[0].bias.tolist()}))
dist.destroy_process_group()
