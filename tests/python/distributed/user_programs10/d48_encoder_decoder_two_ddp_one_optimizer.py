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
enc = nn.Sequential(nn.Linear(4, 3), nn.Tanh()); dec = nn.Linear(3, 4)
init_(enc, 48); init_(dec, 480)
enc_ddp, dec_ddp = DDP(enc), DDP(dec)
opt = mf.optim.Adam(list(enc_ddp.parameters()) + list(dec_ddp.parameters()), lr=0.01)
rng = np.random.default_rng(4800 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
    loss = F.mse_loss(dec_ddp(enc_ddp(x)), x)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "enc": sums(enc), "dec": sums(dec)}))
dist.destroy_process_group()
