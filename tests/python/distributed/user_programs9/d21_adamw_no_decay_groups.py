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
net = nn.Sequential(nn.Linear(4, 4), nn.LayerNorm(4), nn.Linear(4, 2)); init_(net, 21)
model = DDP(net)
decay, no_decay = [], []
for n, p in model.named_parameters():
    (no_decay if n.endswith("bias") or ".1." in n else decay).append(p)
opt = mf.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-2, betas=(0.9, 0.95))
rng = np.random.default_rng(210 + rank)
for _ in range(4):
    x = mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))
    loss = model(x).logsumexp(-1).mean()
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"n": [len(decay), len(no_decay)], "w": [p.sum().item() for p in net.parameters()]}))
dist.destroy_process_group()
