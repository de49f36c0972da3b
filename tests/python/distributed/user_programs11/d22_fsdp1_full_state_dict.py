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
from meshflow.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, FullStateDictConfig
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)); init_(net, 22)
model = FSDP(net, device_id=meshflow.device("cpu"))
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(220 + rank)
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
cfg = FullStateDictConfig(offload_to_cpu=True, rank0_only=True)
with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, cfg):
    sd = model.state_dict()
print("RESULT", rank, json.dumps({"keys": sorted(sd), "sums": {k: round(v.sum().item(), 5) for k, v in sd.items()}}))
dist.destroy_process_group()
