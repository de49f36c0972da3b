import io, json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def net():
    m = nn.Sequential(nn.Conv2d(1, 3, 3, padding=1, bias=False), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(48, 2))
    g = np.random.default_rng(47)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
    return m

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = DDP(net())
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(470 + rank)
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((3, 1, 4, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 3))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), "r13_d47.pth")
if dist.get_rank() == 0:
    meshflow.save({"state_dict": model.module.state_dict(), "optimizer": opt.state_dict(), "loss": loss.item()}, path)
dist.barrier()
map_location = {"cuda:%d" % 0: "cpu"}
ck = meshflow.load(path, map_location=map_location)
other = net()
other.load_state_dict(ck["state_dict"])
other.eval(); model.eval()
xe = meshflow.from_numpy(np.random.default_rng(471).standard_normal((2, 1, 4, 4)).astype(np.float32))
with meshflow.no_grad():
    a, b = other(xe), model(xe)
buf = io.BytesIO()
meshflow.save(other.state_dict(), buf)
dist.barrier()
if rank == 0:
    os.remove(path)
print("RESULT", rank, json.dumps({"loss0": round(ck["loss"], 4), "match": meshflow.allclose(a, b), "out": [round(v, 4) for v in a.flatten().tolist()],
                                  "steps": ck["optimizer"]["state"][0]["step"].item(), "nbytes_pos": buf.tell() > 0,
                                  "rm": [round(v, 4) for v in ck["state_dict"]["1.running_mean"].tolist()]}))
dist.destroy_process_group()
