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
class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4); self.cls = nn.Linear(4, 3); self.reg = nn.Linear(4, 1)
    def forward(self, x):
        h = mf.tanh(self.body(x))
        return self.cls(h), self.reg(h).squeeze(-1)
net = TwoHeads(); init_(net, 13)
model = DDP(net)
opt = mf.optim.RMSprop(model.parameters(), lr=1e-2)
rng = np.random.default_rng(130 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
    logits, r = model(x)
    loss = F.cross_entropy(logits, mf.from_numpy(rng.integers(0, 3, 5))) + 0.5 * F.smooth_l1_loss(r, x[:, 0])
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps([p.sum().item() for p in net.parameters()]))
dist.destroy_process_group()
