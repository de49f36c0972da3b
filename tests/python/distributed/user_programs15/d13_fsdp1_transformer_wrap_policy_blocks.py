import functools, json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.fsdp import FullyShardedDataParallel as FSDP
from meshflow.distributed.fsdp.wrap import transformer_auto_wrap_policy


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        return x + self.ff(self.ln(x))


class Net(nn.Module):
    def __init__(self, d=8, n=2):
        super().__init__()
        self.emb = nn.Embedding(10, d)
        self.blocks = nn.ModuleList([Block(d) for _ in range(n)])
        self.head = nn.Linear(d, 10)

    def forward(self, ids):
        h = self.emb(ids)
        for b in self.blocks:
            h = b(h)
        return self.head(h)


dist.init_process_group("gloo")
rank = dist.get_rank()
net = Net()
g = np.random.default_rng(13)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.2))
policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={Block})
model = FSDP(net, auto_wrap_policy=policy, device_id=meshflow.device("cpu"))
opt = meshflow.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.01)
rng = np.random.default_rng(130 + rank)
losses = []
for _ in range(3):
    ids = meshflow.tensor(rng.integers(0, 10, (2, 5)))
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 10), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
gn = []
print("RESULT", rank, json.dumps({"losses": losses, "nparams": sum(p.numel() for p in model.parameters()) > 0}))
dist.destroy_process_group()
