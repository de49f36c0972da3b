import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
class Siamese(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 4))
        self.shared = nn.Linear(4, 4)
        self.a = self.shared  # the same module under two names
    def forward(self, x1, x2):
        z1 = self.a(self.enc(x1)); z2 = self.shared(self.enc(x2))
        return F.cosine_similarity(z1, z2)
model = Siamese()
g = np.random.default_rng(83)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
ddp = DDP(model, find_unused_parameters=False)
opt = meshflow.optim.SGD(ddp.parameters(), lr=0.2)
rng = np.random.default_rng(84 + rank)
losses = []
for _ in range(3):
    x1 = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32)); x2 = x1 + 0.1 * meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
    label = meshflow.from_numpy(rng.choice([-1.0, 1.0], 4).astype(np.float32))
    loss = ((ddp(x1, x2) - label) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "n_named": len(dict(ddp.named_parameters())),
    "shared": round(model.shared.weight.sum().item(), 5), "modules": len(list(model.modules())),
    "keys": list(model.state_dict().keys())}))
dist.destroy_process_group()
