import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Conv2d(2, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(16, 3), nn.BatchNorm1d(3, affine=False))
rng = np.random.default_rng(7)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
    net[1].running_mean.fill_(0.5); net[1].running_var.fill_(2.0)
sync = nn.SyncBatchNorm.convert_sync_batchnorm(net)
names = [type(m).__name__ for m in sync]

print("RESULT", rank, json.dumps({"names": names, "same": sync[1].weight is net[0 if False else 1].weight if sync is not net else True, "mom": sync[1].momentum, "eps": sync[5].eps, "affine": sync[5].affine, "rm": sync[1].running_mean.tolist(), "keys": sorted(sync.state_dict().keys())}))
dist.destroy_process_group()
