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
enc = nn.Linear(3, 3); dec = nn.Linear(3, 3)
net = nn.Sequential(enc, nn.ReLU(), dec); init_(net, 26)
model = DDP(net)
opt_e = mf.optim.SGD(enc.parameters(), lr=0.1)
opt_d = mf.optim.Adam(dec.parameters(), lr=0.01)
rng = np.random.default_rng(260 + rank)
for step in range(4):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    loss = F.mse_loss(model(x), x)
    opt_e.zero_grad(); opt_d.zero_grad(); loss.backward()
    opt_d.step()
    if step % 2 == 0:
        opt_e.step()
print("RESULT", rank, json.dumps([p.sum().item() for p in net.parameters()]))
dist.destroy_process_group()
