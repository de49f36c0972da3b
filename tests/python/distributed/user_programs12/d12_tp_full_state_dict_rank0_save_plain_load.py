import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
from meshflow.distributed.checkpoint.state_dict import get_model_state_dict, get_optimizer_state_dict, StateDictOptions
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
def plain():
    net = nn.Sequential(nn.Linear(3, 6), nn.GELU(), nn.Linear(6, 3))
    g = np.random.default_rng(41)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
    return net
net = parallelize_module(plain(), mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
opt = meshflow.optim.Adam(net.parameters(), lr=0.05)
rng = np.random.default_rng(42)
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    loss = (net(x) - x).pow(2).mean(); opt.zero_grad(); loss.backward(); opt.step()
full = get_model_state_dict(net, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
osd = get_optimizer_state_dict(net, opt, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
path = os.path.join(box[0], "full.pt")
if rank == 0:
    meshflow.save({"model": full, "optim": osd}, path)
dist.barrier()
ck = meshflow.load(path, map_location="cpu", weights_only=True)
local = plain()
local.load_state_dict(ck["model"])
x = meshflow.from_numpy(np.random.default_rng(43).standard_normal((2, 3)).astype(np.float32))
out = {"y": [round(v, 5) for v in local(x).flatten().tolist()], "n_full": len(full), "n_osd": len(osd)}
if rank == 0:  # cpu_offload with full_state_dict: the whole state on rank 0, nothing elsewhere
    out.update(keys=sorted(full), types=sorted({type(v).__name__ for v in full.values()}), optim_keys=sorted(osd["state"]),
               exp_avg_shape=list(osd["state"]["0.weight"]["exp_avg"].shape), step=float(osd["state"]["0.weight"]["step"]))
print("RESULT", rank, json.dumps(out))
dist.barrier()
if rank == 0:
    os.remove(path); os.rmdir(box[0])
dist.destroy_process_group()
