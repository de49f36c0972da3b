import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import Shard, Replicate, DTensor
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, PrepareModuleOutput
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 6)
        self.mix = nn.Linear(6, 6)
    def forward(self, x):
        return self.mix(meshflow.relu(self.proj(x)))
net = Enc()
g = np.random.default_rng(38)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
parallelize_module(net, mesh, {"proj": ColwiseParallel(output_layouts=Replicate(), use_local_output=False),
                               "mix": ColwiseParallel(use_local_output=False)})
parallelize_module(net, mesh, PrepareModuleOutput(output_layouts=(Shard(-1),), desired_output_layouts=(Replicate(),),
                                                  use_local_output=True))
opt = meshflow.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(39)
losses, kinds = [], None
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))
    out = net(x)
    kinds = [isinstance(out, DTensor), isinstance(net.proj(x), DTensor)]
    loss = out.square().mean(); opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "kinds": kinds, "proj": round(net.proj.weight.full_tensor().sum().item(), 5),
                                  "mix": round(net.mix.weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
