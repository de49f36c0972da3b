import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 6); self.a = nn.Linear(6, 2); self.b = nn.Linear(6, 3)
    def forward(self, x):
        h = meshflow.relu(self.enc(x))
        return {"a": self.a(h), "b": self.b(h), "n": x.shape[0]}
net = M()
g = np.random.default_rng(41)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(4100 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 5))
    out = model(x)
    loss = F.cross_entropy(out["a"], y)     # "b" computed, never in the loss
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append([round(loss.item(), 5), out["n"]])
print("RESULT", rank, json.dumps({"losses": losses, "b_grad": net.b.weight.grad is None,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
