import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.nn.modules.utils import consume_prefix_in_state_dict_if_present

dist.init_process_group("gloo")
rank = dist.get_rank()
def make():
    m = nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 4 * 4, 2))
    g = np.random.default_rng(18)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
    return m
model = DDP(make())
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(1800 + rank)
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((3, 1, 6, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 3))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), "r14_d35.pth")
if rank == 0:
    meshflow.save(model.state_dict(), path)  # keys with "module."
dist.barrier()
sd = meshflow.load(path, map_location="cpu")
keys_before = sorted(sd)[:2]
consume_prefix_in_state_dict_if_present(sd, "module.")
plain = make()
plain.load_state_dict(sd)
sd2 = {k.replace("module.", "", 1): v for k, v in meshflow.load(path, weights_only=True).items()}
plain2 = make(); plain2.load_state_dict(sd2, strict=True)
with meshflow.no_grad():
    x = meshflow.ones(1, 1, 6, 6)
    out = plain(x); out2 = plain2(x)
print("RESULT", rank, json.dumps({"before": keys_before, "after": sorted(sd)[:2], "out": [round(v, 5) for v in out.flatten().tolist()],
                                  "same": meshflow.equal(out, out2)}))
dist.barrier()
if rank == 0:
    os.remove(path)
dist.destroy_process_group()
