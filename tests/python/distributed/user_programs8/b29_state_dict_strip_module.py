import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2))
rng = np.random.default_rng(21)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
x = mf.from_numpy(rng.standard_normal((2, 2, 3)).astype(np.float32))[rank]
loss = model(x).sum(); opt.zero_grad(); loss.backward(); opt.step()
sd = model.state_dict()
clean = {k[len("module."):] if k.startswith("module.") else k: v for k, v in sd.items()}
fresh = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2))
missing = fresh.load_state_dict(clean, strict=True)
path = os.path.join(tempfile.gettempdir(), f"b29_rank{rank}.pth")
mf.save(model.module.state_dict(), path)
back = mf.load(path)
os.remove(path)
with mf.no_grad():
    y = fresh(mf.ones(1, 3))
print("RESULT", rank, json.dumps({"keys": list(sd.keys()), "missing": [list(missing.missing_keys), list(missing.unexpected_keys)], "y": y.tolist(), "same": all(mf.equal(back[k], clean[k]) for k in clean)}))
dist.destroy_process_group()
