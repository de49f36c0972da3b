import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import Shard, Replicate
from meshflow.distributed.tensor.parallel import (parallelize_module, ColwiseParallel, RowwiseParallel, SequenceParallel,
                                               PrepareModuleInput)
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
class FF(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1, self.w2 = nn.Linear(12, 24), nn.Linear(24, 12)
    def forward(self, x):
        return self.w2(F.relu(self.w1(x)))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(20, 12)
        self.norm1, self.ff, self.norm = nn.LayerNorm(12), FF(), nn.LayerNorm(12)
        self.output = nn.Linear(12, 20, bias=False)
    def forward(self, ids):
        h = self.tok(ids)
        h = h + self.ff(self.norm1(h))
        return self.output(self.norm(h))
meshflow.manual_seed(1)
net = Net()
g = np.random.default_rng(2)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3 + (1.0 if p.dim() == 1 else 0.0)).astype(np.float32)))
parallelize_module(net, mesh, {
    "tok": RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1)),
    "norm1": SequenceParallel(),
    "ff": PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),)),
    "ff.w1": ColwiseParallel(),
    "ff.w2": RowwiseParallel(output_layouts=Shard(1)),
    "norm": SequenceParallel(),
    "output": ColwiseParallel(input_layouts=Shard(1), output_layouts=Replicate()),
})
opt = meshflow.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(3)
losses = []
for _ in range(3):
    ids = meshflow.from_numpy(rng.integers(0, 20, (2, 8)))
    logits = net(ids)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, 20), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "logits_shape": list(logits.shape),
    "tok": round(net.tok.weight.full_tensor().sum().item(), 4),
    "norm1": round(net.norm1.weight.full_tensor().sum().item(), 5),
    "out": round(net.output.weight.full_tensor().abs().sum().item(), 4)}))
dist.destroy_process_group()
