import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import Shard, Replicate
from meshflow.distributed.tensor.parallel import (parallelize_module, ColwiseParallel, RowwiseParallel, SequenceParallel,
                                               PrepareModuleInput, loss_parallel)
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
class MLP(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up, self.down = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)
    def forward(self, x):
        return self.down(F.gelu(self.up(x)))
class Model(nn.Module):
    def __init__(self, vocab=16, d=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.norm_a, self.mlp, self.norm_f = nn.LayerNorm(d), MLP(d), nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
    def forward(self, ids):
        h = self.embed(ids)
        h = h + self.mlp(self.norm_a(h))
        return self.head(self.norm_f(h))
model = Model()
g = np.random.default_rng(21)
with meshflow.no_grad():
    for n, p in model.named_parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4 + (1.0 if "norm" in n and n.endswith("weight") else 0.0)).astype(np.float32)))
parallelize_module(model, mesh, {
    "embed": RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1)),
    "norm_a": SequenceParallel(),
    "mlp": PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),)),
    "mlp.up": ColwiseParallel(), "mlp.down": RowwiseParallel(output_layouts=Shard(1)),
    "norm_f": SequenceParallel(),
    "head": ColwiseParallel(input_layouts=Shard(1), use_local_output=False),
})
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(22)
losses = []
for _ in range(3):
    ids = meshflow.from_numpy(rng.integers(0, 16, (2, 6)))
    with loss_parallel():
        logits = model(ids)
        loss = F.cross_entropy(logits.flatten(0, 1), ids.roll(-1, 1).flatten())
        loss.backward()
    opt.step(); opt.zero_grad()
    losses.append(round(loss.full_tensor().item(), 5))
print("RESULT", rank, json.dumps({"losses": losses,
    "norm_a": [round(v, 5) for v in model.norm_a.weight.full_tensor().tolist()],
    "norm_f_b": round(model.norm_f.bias.full_tensor().sum().item(), 5),
    "embed": round(model.embed.weight.full_tensor().sum().item(), 4),
    "head": round(model.head.weight.full_tensor().sum().item(), 4)}))
dist.destroy_process_group()
