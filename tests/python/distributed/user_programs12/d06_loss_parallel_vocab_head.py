import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import Shard, Replicate
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, loss_parallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8)
        self.proj = nn.Linear(8, 8)
        self.lm_head = nn.Linear(8, 10, bias=False)
    def forward(self, ids):
        return self.lm_head(meshflow.tanh(self.proj(self.emb(ids))))
net = LM()
g = np.random.default_rng(4)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
parallelize_module(net, mesh, {"lm_head": ColwiseParallel(input_layouts=Replicate(), output_layouts=Shard(-1), use_local_output=False)})
opt = meshflow.optim.SGD(net.parameters(), lr=0.2)
rng = np.random.default_rng(6)
losses, placements = [], None
for _ in range(3):
    ids = meshflow.from_numpy(rng.integers(0, 10, (3, 5)))
    logits = net(ids)
    placements = str(logits.placements)
    with loss_parallel():
        loss = F.cross_entropy(logits.flatten(0, 1), ids.roll(-1, 1).flatten())
        loss.backward()
    opt.step(); opt.zero_grad()
    losses.append(round(loss.full_tensor().item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "placements": placements,
    "head": round(net.lm_head.weight.full_tensor().sum().item(), 4), "emb": round(net.emb.weight.sum().item(), 4)}))
dist.destroy_process_group()
