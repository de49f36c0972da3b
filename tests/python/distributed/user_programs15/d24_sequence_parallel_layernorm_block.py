import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor, Shard
from meshflow.distributed.tensor.parallel import (parallelize_module, ColwiseParallel, RowwiseParallel,
                                                  SequenceParallel)


class Block(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
block = Block()
g = np.random.default_rng(24)
with meshflow.no_grad():
    for p in block.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
block = parallelize_module(block, mesh, {
    "norm": SequenceParallel(),
    "fc1": ColwiseParallel(input_layouts=Shard(1)),
    "fc2": RowwiseParallel(output_layouts=Shard(1)),
})
opt = meshflow.optim.SGD(block.parameters(), lr=0.05)
rng = np.random.default_rng(240)
losses = []
for _ in range(2):
    x = meshflow.tensor(rng.standard_normal((2, 4, 8)).astype(np.float32))
    out = block(x)
    # use_local_output: each rank's rows of the sequence (meshflow's Tensor has full_tensor
    # for every tensor, so hasattr(out, "full_tensor") cannot tell a DTensor; isinstance can)
    loss = out.full_tensor().pow(2).mean() if isinstance(out, DTensor) else out.pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "norm_w": round(block.norm.weight.full_tensor().sum().item(), 5),
                                  "fc1": round(block.fc1.weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
