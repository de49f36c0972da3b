import json, os, tempfile, shutil, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.fsdp import fully_shard
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
def make(seed):
    net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
    for layer in (net[0], net[2]):
        fully_shard(layer, mesh=mesh)
    fully_shard(net, mesh=mesh)
    return net
def step(net, opt, rng):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 3))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    return round(loss.item(), 5)
net = make(1); opt = meshflow.optim.AdamW(net.parameters(), lr=0.02)
rng = np.random.default_rng(10 + rank)
losses = [step(net, opt, rng) for _ in range(2)]
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
msd, osd = get_state_dict(net, opt)
dcp.save({"model": msd, "optim": osd}, checkpoint_id=box[0])
after = [step(net, opt, np.random.default_rng(20 + rank)) for _ in range(2)]
net2 = make(7); opt2 = meshflow.optim.AdamW(net2.parameters(), lr=0.02)
msd2, osd2 = get_state_dict(net2, opt2)
state = {"model": msd2, "optim": osd2}
dcp.load(state, checkpoint_id=box[0])
set_state_dict(net2, opt2, model_state_dict=state["model"], optim_state_dict=state["optim"])
resumed = [step(net2, opt2, np.random.default_rng(20 + rank)) for _ in range(2)]
dist.barrier()
if rank == 0:
    shutil.rmtree(box[0])
print("RESULT", rank, json.dumps({"losses": losses, "after": after, "resumed": resumed, "keys": sorted(msd),
                                  "w": round(net2[0].weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
