import json, os, tempfile
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel


def make():
    m = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 4))
    g = np.random.default_rng(36)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
    return m


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
tp = parallelize_module(make(), mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
opt = meshflow.optim.Adam(tp.parameters(), lr=0.05)
x = meshflow.tensor(np.random.default_rng(360).standard_normal((3, 4)).astype(np.float32))
for _ in range(2):
    loss = F.mse_loss(tp(x), x)
    opt.zero_grad(); loss.backward(); opt.step()
full = {k: (v.full_tensor() if isinstance(v, DTensor) else v) for k, v in tp.state_dict().items()}
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
path = os.path.join(box[0], "tp_full.pt")
if rank == 0:
    meshflow.save(full, path)
dist.barrier()
plain = make()
plain.load_state_dict(meshflow.load(path))
with meshflow.no_grad():
    same = F.mse_loss(plain(x), x).item()
    tp_loss = F.mse_loss(tp(x), x).item()
dist.barrier()
if rank == 0:
    os.remove(path); os.rmdir(box[0])
print("RESULT", rank, json.dumps({"plain": round(same, 5), "tp": round(tp_loss, 5),
                                  "shapes": {k: list(v.shape) for k, v in full.items()}}))
dist.destroy_process_group()
