import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
import tempfile
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
CHECKPOINT_PATH = os.path.join(box[0], "model.checkpoint")
net = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)); init_(net, 41 + rank)
ddp_model = DDP(net)
if rank == 0:
    mf.save(ddp_model.state_dict(), CHECKPOINT_PATH)
dist.barrier()
map_location = {"cpu": "cpu"}
ddp_model.load_state_dict(mf.load(CHECKPOINT_PATH, map_location=map_location, weights_only=True))
loss_fn = nn.MSELoss()
optimizer = mf.optim.SGD(ddp_model.parameters(), lr=0.001)
optimizer.zero_grad()
rng = np.random.default_rng(4100 + rank)
outputs = ddp_model(mf.from_numpy(rng.standard_normal((20, 4)).astype(np.float32)))
labels = mf.from_numpy(rng.standard_normal((20, 2)).astype(np.float32))
loss_fn(outputs, labels).backward()
optimizer.step()
again = mf.load(CHECKPOINT_PATH, map_location=lambda storage, loc: storage)
print("RESULT", rank, json.dumps({"w": sums(net), "keys": sorted(again)}))
dist.destroy_process_group()
