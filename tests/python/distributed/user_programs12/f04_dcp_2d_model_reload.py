import json, os, tempfile, shutil, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
from meshflow.distributed.fsdp import fully_shard
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
def make(seed):
    net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    parallelize_module(net, mesh["tp"], {"0": ColwiseParallel(), "2": RowwiseParallel()})
    fully_shard(net, mesh=mesh["dp"])
    return net
def step(net, opt, rng):
    x = meshflow.from_numpy(rng.standard_normal((3, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 4, 3))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    return round(loss.item(), 5)
dp = mesh["dp"].get_local_rank()
net = make(4); opt = meshflow.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
losses = [step(net, opt, np.random.default_rng(40 + dp)) for _ in range(2)]
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
dcp.save({"model": net.state_dict(), "optim": opt.state_dict()}, checkpoint_id=box[0])
after = [step(net, opt, np.random.default_rng(50 + dp)) for _ in range(2)]
net2 = make(5); opt2 = meshflow.optim.SGD(net2.parameters(), lr=0.1, momentum=0.9)
step(net2, opt2, np.random.default_rng(0))
state = {"model": net2.state_dict(), "optim": opt2.state_dict()}
dcp.load(state, checkpoint_id=box[0])
net2.load_state_dict(state["model"]); opt2.load_state_dict(state["optim"])
resumed = [step(net2, opt2, np.random.default_rng(50 + dp)) for _ in range(2)]
dist.barrier()
if rank == 0:
    shutil.rmtree(box[0])
print("RESULT", rank, json.dumps({"losses": losses, "after": after, "resumed": resumed,
                                  "w": round(net2[2].weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
