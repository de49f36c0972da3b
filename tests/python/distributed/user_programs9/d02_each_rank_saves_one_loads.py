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
net = nn.Linear(3, 2)
init_(net, 3)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(30 + rank)
for _ in range(2):
    x = mf.from_numpy(rng.standard_normal((5, 3)).astype(np.float32))
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
d = tempfile.gettempdir()
mf.save({"model": model.state_dict(), "opt": opt.state_dict(), "rank": rank, "last_x": x}, os.path.join(d, f"up9_d02_rank{rank}.pt"))
dist.barrier()
if rank == 0:
    both = [mf.load(os.path.join(d, f"up9_d02_rank{r}.pt"), map_location="cpu") for r in range(world)]
    same = all(mf.equal(both[0]["model"][k], both[1]["model"][k]) for k in both[0]["model"])
    print("RESULT", rank, json.dumps({"keys": sorted(both[0]["model"].keys()), "same": bool(same),
          "ranks": [b["rank"] for b in both], "x1": both[1]["last_x"].sum().item(),
          "nstate": len(both[1]["opt"]["state"]), "groups": both[1]["opt"]["param_groups"][0]["params"],
          "w": both[0]["model"]["module.weight"].tolist()}))
dist.barrier()
dist.destroy_process_group()
