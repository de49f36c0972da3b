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
import meshflow.distributed.nn.functional as distF
enc = nn.Linear(5, 4); init_(enc, 51)
model = DDP(enc)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(5100 + rank)
for _ in range(2):
    a = mf.from_numpy(rng.standard_normal((3, 5)).astype(np.float32))
    b = a + 0.1 * mf.from_numpy(rng.standard_normal((3, 5)).astype(np.float32))
    za, zb = F.normalize(model(a), dim=-1), F.normalize(model(b), dim=-1)
    all_zb = mf.cat(distF.all_gather(zb))
    logits = za @ all_zb.t() / 0.5
    labels = mf.arange(3) + 3 * rank
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(enc)}))
dist.destroy_process_group()
