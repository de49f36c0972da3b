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
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 6, num_layers=2, batch_first=True); self.fc = nn.Linear(6, 3)
    def forward(self, x):
        h0 = mf.zeros(2, x.size(0), 6, device=x.device)
        c0 = mf.zeros_like(h0)
        out, (h, c) = self.lstm(x, (h0, c0))
        return self.fc(out)
net = Tagger(); init_(net, 2)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=5e-3)
rng = np.random.default_rng(200 + rank)
norms = []
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((3, 5, 4)).astype(np.float32))
    y = mf.from_numpy(rng.integers(0, 3, (3, 5)))
    loss = F.cross_entropy(model(x).reshape(-1, 3), y.reshape(-1))
    opt.zero_grad(); loss.backward()
    norms.append(nn.utils.clip_grad_norm_(model.parameters(), 0.5).item())
    opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "norms": norms, "w": sums(net)}))
dist.destroy_process_group()
