import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
class TinyLM(nn.Module):
    def __init__(self, vocab=12, d=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.emb.weight  # tied
    def forward(self, ids):
        return self.head(meshflow.tanh(self.mix(self.emb(ids))))
model = TinyLM()
g = np.random.default_rng(81 + rank)  # different on each rank: DDP broadcasts rank 0's
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
ddp = DDP(model)
opt = meshflow.optim.Adam(ddp.parameters(), lr=0.02)
rng = np.random.default_rng(90 + rank)
losses = []
for _ in range(3):
    ids = meshflow.from_numpy(rng.integers(0, 12, (3, 5)))
    logits = ddp(ids)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, 12), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "n_params": len(list(ddp.parameters())),
    "tied": model.head.weight is model.emb.weight, "emb": round(model.emb.weight.sum().item(), 4),
    "keys": sorted(ddp.state_dict().keys())}))
dist.destroy_process_group()
