import json, os, tempfile, shutil, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
def make(seed):
    net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return parallelize_module(net, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
def step(net, opt, rng):
    x = meshflow.from_numpy(rng.standard_normal((5, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 4, 5))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    return round(loss.item(), 5)
net = make(1); opt = meshflow.optim.Adam(net.parameters(), lr=0.02)
rng = np.random.default_rng(2)
losses = [step(net, opt, rng) for _ in range(2)]
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
ckpt = os.path.join(box[0], "step2")
dcp.save({"model": net.state_dict(), "optim": opt.state_dict()}, checkpoint_id=ckpt)
cont = [step(net, opt, np.random.default_rng(3)) for _ in range(2)]
net2 = make(99); opt2 = meshflow.optim.Adam(net2.parameters(), lr=0.02)
step(net2, opt2, np.random.default_rng(4))  # optimizer state must exist to be loaded into
state = {"model": net2.state_dict(), "optim": opt2.state_dict()}
dcp.load(state, checkpoint_id=ckpt)
net2.load_state_dict(state["model"]); opt2.load_state_dict(state["optim"])
resumed = [step(net2, opt2, np.random.default_rng(3)) for _ in range(2)]
dist.barrier()
if rank == 0:
    shutil.rmtree(box[0])
print("RESULT", rank, json.dumps({"losses": losses, "cont": cont, "resumed": resumed,
    "w": round(net2[0].weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
