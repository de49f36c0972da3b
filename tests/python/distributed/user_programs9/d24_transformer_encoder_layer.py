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
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
net = nn.Sequential(layer, nn.Linear(8, 1)); init_(net, 24)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=1e-3)
rng = np.random.default_rng(240 + rank)
for _ in range(2):
    x = mf.from_numpy(rng.standard_normal((2, 5, 8)).astype(np.float32))
    loss = model(x).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
