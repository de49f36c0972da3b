import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
def make():
    m = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 2))
    g = np.random.default_rng(10)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return m
model = DDP(make())
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(1000 + rank)
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((6, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 6))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), "r14_d23.pt")
if rank == 0:
    meshflow.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": 3, "best": [0.5, 0.25]}, path)
dist.barrier()
ck = meshflow.load(path, map_location="cpu", weights_only=True)
fresh = make()
fresh.load_state_dict(ck["model"])
opt2 = meshflow.optim.SGD(fresh.parameters(), lr=0.1, momentum=0.9)
opt2.load_state_dict(ck["opt"])
ck2 = meshflow.load(path, map_location=lambda storage, loc: storage)
fresh.eval(); model.eval()
with meshflow.no_grad():
    x = meshflow.ones(2, 3)
    same = meshflow.allclose(fresh(x), model(x))
print("RESULT", rank, json.dumps({"epoch": ck["epoch"], "best": ck["best"], "same": same,
                                  "keys": sorted(ck["model"].keys()), "nbt": int(ck2["model"]["1.num_batches_tracked"]),
                                  "mom": round(opt2.state_dict()["state"][0]["momentum_buffer"].sum().item(), 5),
                                  "rm": round(fresh[1].running_mean.sum().item(), 5)}))
dist.barrier()
if rank == 0:
    os.remove(path)
dist.destroy_process_group()
