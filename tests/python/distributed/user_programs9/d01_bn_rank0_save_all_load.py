import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
import tempfile
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3))
init_(net, 2)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(7 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 2, 5, 5)).astype(np.float32))
    y = mf.from_numpy(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), "up9_d01_ckpt.pt")
if rank == 0:
    mf.save(model.module.state_dict(), path)
dist.barrier()
fresh = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3))
fresh.load_state_dict(mf.load(path, map_location="cpu"))
fresh.eval()
with mf.no_grad():
    out = fresh(mf.ones(2, 2, 5, 5))
print("RESULT", rank, json.dumps({"out": out.tolist(), "rm": fresh[1].running_mean.tolist(), "local_rm": net[1].running_mean.tolist()}))
dist.barrier()
dist.destroy_process_group()
