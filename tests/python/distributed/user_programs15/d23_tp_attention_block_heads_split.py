import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel


class Attention(nn.Module):
    def __init__(self, dim=8, heads=4):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        q = self.wq(x).view(b, t, -1, self.hd).transpose(1, 2)
        k = self.wk(x).view(b, t, -1, self.hd).transpose(1, 2)
        v = self.wv(x).view(b, t, -1, self.hd).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(b, t, -1)
        return self.wo(y)


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
attn = Attention()
g = np.random.default_rng(23)
with meshflow.no_grad():
    for p in attn.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
plan = {"wq": ColwiseParallel(), "wk": ColwiseParallel(), "wv": ColwiseParallel(), "wo": RowwiseParallel()}
attn = parallelize_module(attn, mesh, plan)
opt = meshflow.optim.Adam(attn.parameters(), lr=0.01)
rng = np.random.default_rng(230)
losses = []
for _ in range(3):
    x = meshflow.tensor(rng.standard_normal((2, 5, 8)).astype(np.float32))
    loss = (attn(x) - x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "wq_local": list(attn.wq.weight.to_local().shape),
                                  "wo": round(attn.wo.weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
