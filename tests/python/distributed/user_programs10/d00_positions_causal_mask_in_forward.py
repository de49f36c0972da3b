import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
class Attn(nn.Module):
    def __init__(self, vocab=12, d=8, t=6):
        super().__init__()
        self.tok = nn.Embedding(vocab, d); self.pos = nn.Embedding(t, d)
        self.qkv = nn.Linear(d, 3 * d); self.head = nn.Linear(d, vocab)
    def forward(self, ids):
        b, t = ids.shape
        pos = mf.arange(0, t, dtype=mf.long, device=ids.device)
        x = self.tok(ids) + self.pos(pos)[None]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = q @ k.transpose(-2, -1) / (q.shape[-1] ** 0.5)
        mask = mf.triu(mf.full((t, t), float("-inf"), device=ids.device), diagonal=1)
        att = F.softmax(att + mask, dim=-1)
        return self.head(att @ v)
net = Attn(); init_(net, 1)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(100 + rank)
for _ in range(3):
    ids = mf.from_numpy(rng.integers(0, 12, (2, 6)))
    logits = model(ids)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, 12), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
