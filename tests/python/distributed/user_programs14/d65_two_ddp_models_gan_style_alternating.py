import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
def init(m, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return m
G = DDP(init(nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3)), 42))
D = DDP(init(nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1)), 43))
og = meshflow.optim.Adam(G.parameters(), lr=0.01, betas=(0.5, 0.999))
od = meshflow.optim.Adam(D.parameters(), lr=0.01, betas=(0.5, 0.999))
rng = np.random.default_rng(4300 + rank)
log = []
for _ in range(3):
    z = meshflow.from_numpy(rng.standard_normal((4, 2)).astype(np.float32))
    real = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32) + 1)
    fake = G(z)
    d_loss = F.binary_cross_entropy_with_logits(D(real), meshflow.ones(4, 1)) + \
        F.binary_cross_entropy_with_logits(D(fake.detach()), meshflow.zeros(4, 1))
    od.zero_grad(); d_loss.backward(); od.step()
    g_loss = F.binary_cross_entropy_with_logits(D(fake), meshflow.ones(4, 1))
    og.zero_grad(); g_loss.backward(); og.step()
    log.append([round(d_loss.item(), 5), round(g_loss.item(), 5)])
print("RESULT", rank, json.dumps({"log": log, "g": round(sum(p.sum().item() for p in G.parameters()), 4),
                                  "d": round(sum(p.sum().item() for p in D.parameters()), 4)}))
dist.destroy_process_group()
