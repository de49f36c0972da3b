import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.optim import ZeroRedundancyOptimizer

dist.init_process_group("gloo")
rank = dist.get_rank()
def make():
    net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
    g = np.random.default_rng(34)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return net
net = make(); model = DDP(net)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=meshflow.optim.Adam, parameters_as_bucket_view=True, lr=0.01)
rng = np.random.default_rng(3400 + rank)
data = [(meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)), meshflow.from_numpy(rng.integers(0, 3, 5))) for _ in range(4)]
for x, y in data[:2]:
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
opt.consolidate_state_dict(to=0)
path = os.path.join(tempfile.gettempdir(), "r14_d60.pt")
if rank == 0:
    meshflow.save({"model": net.state_dict(), "optim": opt.state_dict()}, path)
dist.barrier()
ck = meshflow.load(path, map_location="cpu")
net2 = make(); net2.load_state_dict(ck["model"]); model2 = DDP(net2)
opt2 = ZeroRedundancyOptimizer(model2.parameters(), optimizer_class=meshflow.optim.Adam, lr=0.01)
opt2.load_state_dict(ck["optim"])
cont = []
for x, y in data[2:]:
    for m, o in ((model, opt), (model2, opt2)):
        loss = F.cross_entropy(m(x), y); o.zero_grad(); loss.backward(); o.step()
    cont.append(round(loss.item(), 5))
same = all(meshflow.allclose(a, b, atol=1e-6) for a, b in zip(net.parameters(), net2.parameters()))
print("RESULT", rank, json.dumps({"cont": cont, "same": same, "w": round(sum(p.sum().item() for p in net2.parameters()), 5)}))
dist.barrier()
if rank == 0:
    os.remove(path)
dist.destroy_process_group()
