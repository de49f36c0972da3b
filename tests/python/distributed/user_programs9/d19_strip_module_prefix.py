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
from meshflow.nn.modules.utils import consume_prefix_in_state_dict_if_present
net = nn.Sequential(nn.Linear(3, 2), nn.LayerNorm(2)); init_(net, 19)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
x = mf.ones(2, 3) * (rank + 1)
model(x).sum().backward(); opt.step()
sd = model.state_dict()
keys = list(sd.keys())
consume_prefix_in_state_dict_if_present(sd, "module.")
plain = nn.Sequential(nn.Linear(3, 2), nn.LayerNorm(2))
res = plain.load_state_dict(sd)
sd2 = {k[len("module."):] if k.startswith("module.") else k: v for k, v in model.state_dict().items()}
plain2 = nn.Sequential(nn.Linear(3, 2), nn.LayerNorm(2)); plain2.load_state_dict(sd2, strict=True)
print("RESULT", rank, json.dumps({"keys": keys, "missing": list(res.missing_keys), "w": plain[0].weight.tolist(), "eq": bool(mf.equal(plain2[1].weight, plain[1].weight))}))
dist.destroy_process_group()
