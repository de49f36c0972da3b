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
from meshflow.distributed.optim import ZeroRedundancyOptimizer
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
net = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)); init_(net, 55)
model = DDP(net)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=mf.optim.Adam, lr=0.01)
rng = np.random.default_rng(5500 + rank)
for _ in range(2):
    x = mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 3))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
opt.consolidate_state_dict(to=0)
if rank == 0:
    sd = opt.state_dict()
    mf.save(sd, os.path.join(box[0], "opt.pt"))
dist.barrier()
back = mf.load(os.path.join(box[0], "opt.pt"), map_location="cpu")
steps = sorted(float(v["step"]) for v in back["state"].values())
print("RESULT", rank, json.dumps({"n": len(back["state"]), "steps": steps, "exp_avg": round(sum(v["exp_avg"].sum().item() for v in back["state"].values()), 5), "w": sums(net)}))
dist.destroy_process_group()
