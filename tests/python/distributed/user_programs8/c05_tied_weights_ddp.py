import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(11, 6)
        self.ln = nn.LayerNorm(6)
        self.head = nn.Linear(6, 11, bias=False)
        self.head.weight = self.emb.weight
    def forward(self, t):
        return self.head(self.ln(self.emb(t)))

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = TinyLM()
rng = np.random.default_rng(44)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = mf.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)
T = rng.integers(0, 11, (3, 4, 6))
losses = []
for i in range(3):
    t = mf.from_numpy(T[i, rank * 2:(rank + 1) * 2])
    logits = model(t[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 11), t[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "n_params": len(list(model.parameters())), "e": net.emb.weight[3].tolist(), "tied": net.head.weight is net.emb.weight}))
dist.destroy_process_group()
