import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
def make(seed):
    net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
    return parallelize_module(net, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
net = make(45)
opt = meshflow.optim.SGD(net.parameters(), lr=0.1)
x = meshflow.from_numpy(np.random.default_rng(46).standard_normal((3, 4)).astype(np.float32))
loss = net(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
# each rank saves its own shards, as plain local tensors, to a file of its own
local = {k: v.to_local() for k, v in net.state_dict().items()}
meshflow.save(local, os.path.join(box[0], f"shard_{rank}.pt"))
dist.barrier()
net2 = make(0)
mine = meshflow.load(os.path.join(box[0], f"shard_{rank}.pt"))
with meshflow.no_grad():
    for k, v in net2.state_dict().items():
        v.to_local().copy_(mine[k]) if isinstance(v, DTensor) else v.copy_(mine[k])
y1, y2 = net(x), net2(x)
dist.barrier()
if rank == 0:
    for r in range(world):
        os.remove(os.path.join(box[0], f"shard_{r}.pt"))
    os.rmdir(box[0])
print("RESULT", rank, json.dumps({"same": bool(meshflow.allclose(y1, y2)), "y2": [round(v, 5) for v in y2.flatten().tolist()],
                                  "shapes": {k: list(v.shape) for k, v in mine.items()}}))
dist.destroy_process_group()
