import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.block = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=0.2), nn.ReLU())
        self.head = nn.Linear(4, 2)
    def forward(self, x):
        h = F.relu(self.bn(self.conv(x))).mean((2, 3))
        return self.head(self.block(h))
net = Net(); init_(net, 16)
rng = np.random.default_rng(160 + rank)
net.train()
for _ in range(2):
    net(meshflow.from_numpy(rng.standard_normal((4, 2, 5, 5)).astype(np.float32)))
before = {k: round(v.float().sum().item(), 5) for k, v in net.state_dict().items()}
sync = nn.SyncBatchNorm.convert_sync_batchnorm(net)
after = {k: round(v.float().sum().item(), 5) for k, v in sync.state_dict().items()}
kinds = {n: type(m).__name__ for n, m in sync.named_modules() if n}
print("RESULT", rank, json.dumps({"same": before == after, "kinds": kinds, "keys": sorted(after), "bn_momentum": sync.block[1].momentum, "sums": after}))
dist.destroy_process_group()
