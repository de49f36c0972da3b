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
rng = np.random.default_rng(2600 + rank)
scores = mf.from_numpy(rng.random(6).astype(np.float32)); labels = mf.from_numpy(rng.integers(0, 2, 6))
s_all = [mf.zeros(6) for _ in range(world)]; l_all = [mf.zeros(6, dtype=mf.int64) for _ in range(world)]
dist.all_gather(s_all, scores); dist.all_gather(l_all, labels)
s, l = mf.cat(s_all), mf.cat(l_all)
order = mf.argsort(s, descending=True)
top = l[order][:4].float().mean().item()
pos = s[l == 1]; neg = s[l == 0]
auc = (pos[:, None] > neg[None, :]).float().mean().item()
print("RESULT", rank, json.dumps({"top4": top, "auc": auc, "n": int(s.numel())}))
dist.destroy_process_group()
