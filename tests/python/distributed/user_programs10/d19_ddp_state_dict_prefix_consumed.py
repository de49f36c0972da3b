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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
from meshflow.nn.modules.utils import consume_prefix_in_state_dict_if_present
import tempfile
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
net = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2)); init_(net, 19)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(1900 + rank)
loss = model(mf.from_numpy(rng.standard_normal((3, 3)).astype(np.float32))).pow(2).mean()
loss.backward(); opt.step()
if rank == 0:
    mf.save(model.state_dict(), os.path.join(box[0], "ddp.pt"))
dist.barrier()
sd = mf.load(os.path.join(box[0], "ddp.pt"), map_location="cpu")
prefixed = sorted(sd)[:2]
consume_prefix_in_state_dict_if_present(sd, "module.")
plain = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2))
missing = plain.load_state_dict(sd, strict=True)
print("RESULT", rank, json.dumps({"prefixed": prefixed, "keys": sorted(sd), "w": sums(plain)}))
dist.destroy_process_group()
