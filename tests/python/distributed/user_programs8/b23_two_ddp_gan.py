import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
rng = np.random.default_rng(16)
def init(m):
    with mf.no_grad():
        for p in m.parameters():
            p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
    return m
G = DDP(init(nn.Sequential(nn.Linear(2, 6), nn.LeakyReLU(0.2), nn.Linear(6, 3))))
D = DDP(init(nn.Sequential(nn.Linear(3, 6), nn.LeakyReLU(0.2), nn.Linear(6, 1))))
og = mf.optim.Adam(G.parameters(), lr=0.01, betas=(0.5, 0.999))
od = mf.optim.Adam(D.parameters(), lr=0.01, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
Z = rng.standard_normal((3, 8, 2)).astype(np.float32)
R = rng.standard_normal((3, 8, 3)).astype(np.float32) + 1
hist = []
for i in range(3):
    z, real = mf.from_numpy(Z[i, rank::2]), mf.from_numpy(R[i, rank::2])
    fake = G(z)
    d_loss = bce(D(real), mf.ones(4, 1)) + bce(D(fake.detach()), mf.zeros(4, 1))
    od.zero_grad(); d_loss.backward(); od.step()
    g_loss = bce(D(fake), mf.ones(4, 1))
    og.zero_grad(); g_loss.backward(); og.step()
    hist.append([d_loss.item(), g_loss.item()])
print("RESULT", rank, json.dumps({"hist": hist, "g": G.module[2].bias.tolist(), "d": D.module[2].weight.tolist()}))
dist.destroy_process_group()
