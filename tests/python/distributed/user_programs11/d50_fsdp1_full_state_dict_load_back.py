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
net = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 2)); init_(net, 50)
model = FSDP(net, device_id=meshflow.device("cpu"))
with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=False)):
    start = {k: v.clone() for k, v in model.state_dict().items()}
opt = meshflow.optim.Adam(model.parameters(), lr=0.05)
rng = np.random.default_rng(500 + rank)
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
probe = meshflow.linspace(-1, 1, 8).reshape(2, 4)
trained = model(probe).detach().flatten().tolist()
with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=False)):
    model.load_state_dict(start)
back = model(probe).detach().flatten().tolist()
plain = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 2)); plain.load_state_dict(start)
print("RESULT", rank, json.dumps({"trained": [round(v, 5) for v in trained], "back": [round(v, 5) for v in back], "plain": [round(v, 5) for v in plain(probe).detach().flatten().tolist()]}))
dist.destroy_process_group()
