import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
import tempfile
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.fsdp import fully_shard
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
mesh = init_device_mesh("cpu", (world,))
net = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1)); init_(net, 21)
fully_shard(net, mesh=mesh)
opt = meshflow.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(210 + rank)
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((4, 1)).astype(np.float32))
    loss = F.mse_loss(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
full = {k: v.full_tensor() for k, v in net.state_dict().items()}
if rank == 0:
    meshflow.save(full, os.path.join(box[0], "model.pt"))
dist.barrier()
plain = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
plain.load_state_dict(meshflow.load(os.path.join(box[0], "model.pt"), map_location="cpu"))
probe = meshflow.linspace(-1, 1, 6).reshape(2, 3)
print("RESULT", rank, json.dumps({"out": [round(v, 5) for v in plain(probe).flatten().tolist()], "w": sums(plain)}))
dist.destroy_process_group()
