import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
d = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(d, src=0)
CKPT = os.path.join(d[0], "checkpoint.pt")
def make():
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    rng = np.random.default_rng(8)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
    return net
X = np.random.default_rng(9).standard_normal((6, 8, 4)).astype(np.float32)
def step(model, opt, i):
    x = mf.from_numpy(X[i, rank * 4:(rank + 1) * 4])
    loss = model(x).sin().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.item()
model = DDP(make())
opt = mf.optim.AdamW(model.parameters(), lr=0.01)
l1 = [step(model, opt, i) for i in range(3)]
if rank == 0:
    mf.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 3}, CKPT)
dist.barrier()
model2 = DDP(make())
opt2 = mf.optim.AdamW(model2.parameters(), lr=0.01)
ck = mf.load(CKPT, map_location="cpu")
model2.load_state_dict(ck["model"]); opt2.load_state_dict(ck["opt"])
l2 = [step(model2, opt2, i) for i in range(ck["epoch"], 6)]
l_cont = [step(model, opt, i) for i in range(3, 6)]
print("RESULT", rank, json.dumps({"l1": l1, "l2": l2, "cont": l_cont, "keys": list(ck["model"].keys()), "step": ck["opt"]["state"][0]["step"].item()}))
dist.barrier()
if rank == 0:
    os.remove(CKPT); os.rmdir(d[0])
dist.destroy_process_group()
