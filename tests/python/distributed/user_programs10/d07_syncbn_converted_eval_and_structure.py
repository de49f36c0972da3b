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
net = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
init_(net, 8)
with mf.no_grad():
    net[1].running_mean.copy_(mf.tensor([0.1, -0.2, 0.3, 0.0])); net[1].running_var.copy_(mf.tensor([1.0, 2.0, 0.5, 1.5]))
sync = nn.SyncBatchNorm.convert_sync_batchnorm(net)
kinds = [type(m).__name__ for m in sync]
state = sync.state_dict()
plain = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
plain.load_state_dict(state)
plain.eval()
rng = np.random.default_rng(800 + rank)
x = mf.from_numpy(rng.standard_normal((3, 2, 5, 5)).astype(np.float32))
with mf.no_grad():
    out = plain(x)
outs = [mf.zeros_like(out) for _ in range(world)]
dist.all_gather(outs, out)
print("RESULT", rank, json.dumps({"kinds": kinds, "out": mf.cat(outs).tolist(), "keys": sorted(state.keys())}))
dist.destroy_process_group()
