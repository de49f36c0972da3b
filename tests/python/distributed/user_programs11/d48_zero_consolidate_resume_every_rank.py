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
import tempfile
from meshflow.distributed.optim import ZeroRedundancyOptimizer
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2)); init_(net, 48)
model = DDP(net)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=meshflow.optim.SGD, lr=0.1, momentum=0.9)
rng = np.random.default_rng(480 + rank)
data = [(meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)), meshflow.from_numpy(rng.integers(0, 2, 4))) for _ in range(4)]
for x, y in data[:2]:
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
opt.consolidate_state_dict(to=0)
if rank == 0:
    meshflow.save({"model": net.state_dict(), "opt": opt.state_dict()}, os.path.join(box[0], "c.pt"))
dist.barrier()
ck = meshflow.load(os.path.join(box[0], "c.pt"), map_location="cpu")
net2 = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2)); net2.load_state_dict(ck["model"])
model2 = DDP(net2)
opt2 = ZeroRedundancyOptimizer(model2.parameters(), optimizer_class=meshflow.optim.SGD, lr=0.1, momentum=0.9)
opt2.load_state_dict(ck["opt"])
for x, y in data[2:]:
    for m, o in ((model, opt), (model2, opt2)):
        loss = F.cross_entropy(m(x), y); o.zero_grad(); loss.backward(); o.step()
print("RESULT", rank, json.dumps({"a": sums(net), "b": sums(net2)}))
dist.destroy_process_group()
