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
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
path = os.path.join(box[0], "ckpt.pt")
def build():
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)); init_(net, 34); return net
net = build(); model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(340 + rank)
data = [(meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)), meshflow.from_numpy(rng.standard_normal((4, 1)).astype(np.float32))) for _ in range(4)]
for x, y in data[:2]:
    loss = F.mse_loss(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
if rank == 0:
    meshflow.save({"model": model.state_dict(), "opt": opt.state_dict()}, path)
dist.barrier()
ck = meshflow.load(path, map_location=lambda storage, loc: storage)
net2 = build(); model2 = DDP(net2); model2.load_state_dict(ck["model"])
opt2 = meshflow.optim.SGD(model2.parameters(), lr=0.05, momentum=0.9); opt2.load_state_dict(ck["opt"])
for x, y in data[2:]:
    for m, o in ((model, opt), (model2, opt2)):
        loss = F.mse_loss(m(x), y); o.zero_grad(); loss.backward(); o.step()
print("RESULT", rank, json.dumps({"keys": sorted(ck["model"])[:2], "a": sums(net), "b": sums(net2)}))
dist.destroy_process_group()
