import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import Replicate
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel


class LM(nn.Module):
    def __init__(self, v=12, d=8):
        super().__init__()
        self.tok = nn.Embedding(v, d)
        self.norm = nn.LayerNorm(d)
        self.out = nn.Linear(d, v, bias=False)

    def forward(self, ids):
        return self.out(self.norm(self.tok(ids)))


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
lm = LM()
g = np.random.default_rng(35)
with meshflow.no_grad():
    for p in lm.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
lm = parallelize_module(lm, mesh, {"tok": RowwiseParallel(input_layouts=Replicate()),
                                   "out": ColwiseParallel(output_layouts=Replicate())})
opt = meshflow.optim.SGD(lm.parameters(), lr=0.5)
rng = np.random.default_rng(350)
losses = []
for _ in range(3):
    ids = meshflow.tensor(rng.integers(0, 12, (2, 6)))
    logits = lm(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 12), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "tok_local": list(lm.tok.weight.to_local().shape),
                                  "out_local": list(lm.out.weight.to_local().shape),
                                  "tok": round(lm.tok.weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
