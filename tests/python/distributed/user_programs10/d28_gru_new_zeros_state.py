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
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4); self.fc = nn.Linear(4, 1)
    def forward(self, x):
        h = x.new_zeros(1, x.size(1), 4)
        out, h = self.gru(x, h)
        return self.fc(h[-1])
net = Enc(); init_(net, 28)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(2800 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((5, 2, 3)).astype(np.float32)); y = mf.from_numpy(rng.standard_normal((2, 1)).astype(np.float32))
    loss = F.l1_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
