import json, math, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
class Attention(nn.Module):
    def __init__(self, dim=16, heads=4):
        super().__init__()
        self.n_heads, self.head_dim = heads, dim // heads
        self.wq, self.wk, self.wv = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
    def forward(self, x):
        b, s, _ = x.shape
        q = self.wq(x).view(b, s, -1, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(b, s, -1, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(b, s, -1, self.head_dim).transpose(1, 2)
        mask = meshflow.full((s, s), float("-inf")).triu(1)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim) + mask
        out = F.softmax(att, dim=-1) @ v
        return self.wo(out.transpose(1, 2).reshape(b, s, -1))
class FeedForward(nn.Module):
    def __init__(self, dim=16, hidden=32):
        super().__init__()
        self.w1, self.w2, self.w3 = nn.Linear(dim, hidden, bias=False), nn.Linear(hidden, dim, bias=False), nn.Linear(dim, hidden, bias=False)
    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention_norm, self.attention = nn.LayerNorm(16), Attention()
        self.ffn_norm, self.feed_forward = nn.LayerNorm(16), FeedForward()
    def forward(self, x):
        h = x + self.attention(self.attention_norm(x))
        return h + self.feed_forward(self.ffn_norm(h))
block = Block()
g = np.random.default_rng(11)
with meshflow.no_grad():
    for n, p in block.named_parameters():
        if "norm" not in n:
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.2).astype(np.float32)))
parallelize_module(block, mesh, {
    "attention.wq": ColwiseParallel(), "attention.wk": ColwiseParallel(), "attention.wv": ColwiseParallel(),
    "attention.wo": RowwiseParallel(),
    "feed_forward.w1": ColwiseParallel(), "feed_forward.w3": ColwiseParallel(), "feed_forward.w2": RowwiseParallel()})
opt = meshflow.optim.AdamW(block.parameters(), lr=3e-3, weight_decay=0.1)
rng = np.random.default_rng(12)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((2, 5, 16)).astype(np.float32))
    target = meshflow.from_numpy(rng.standard_normal((2, 5, 16)).astype(np.float32))
    loss = F.mse_loss(block(x), target)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses,
    "wq": round(block.attention.wq.weight.full_tensor().sum().item(), 4),
    "wo_local": list(block.attention.wo.weight.to_local().shape),
    "norm": round(block.ffn_norm.weight.sum().item(), 5)}))
dist.destroy_process_group()
