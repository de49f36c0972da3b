import json, os, tempfile
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.fsdp import fully_shard
from meshflow.distributed.checkpoint.state_dict import get_model_state_dict, StateDictOptions

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))


def fresh():
    net = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3))
    g = np.random.default_rng(16)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
    return net


model = fresh()
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)
opt = meshflow.optim.SGD(model.parameters(), lr=0.2, momentum=0.5)
rng = np.random.default_rng(160 + rank)
for _ in range(2):
    x = meshflow.tensor(rng.standard_normal((3, 5)).astype(np.float32))
    loss = F.mse_loss(model(x), x[:, :3])
    opt.zero_grad(); loss.backward(); opt.step()
sd = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
path = os.path.join(box[0], "model.pt")
if rank == 0:
    meshflow.save(sd, path)
dist.barrier()
plain = fresh()
plain.load_state_dict(meshflow.load(path, weights_only=True))
with meshflow.no_grad():
    y = plain(meshflow.ones(1, 5))
dist.barrier()
if rank == 0:
    os.remove(path); os.rmdir(box[0])
print("RESULT", rank, json.dumps({"n": len(sd), "keys": sorted(sd), "y": [round(v, 5) for v in y.flatten().tolist()],
                                  "plain_tensor": type(sd["0.weight"]).__name__ if sd else None}))
dist.destroy_process_group()
