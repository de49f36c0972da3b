import functools, json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, FullStateDictConfig
from meshflow.distributed.fsdp.wrap import size_based_auto_wrap_policy

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 12), nn.ReLU(), nn.Linear(12, 3))
g = np.random.default_rng(12)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
policy = functools.partial(size_based_auto_wrap_policy, min_num_params=50)
model = FSDP(net, auto_wrap_policy=policy, device_id=meshflow.device("cpu"))
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(120 + rank)
losses = []
for _ in range(3):
    x = meshflow.tensor(rng.standard_normal((4, 6)).astype(np.float32))
    y = meshflow.tensor(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
cfg = FullStateDictConfig(offload_to_cpu=True, rank0_only=True)
with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, cfg):
    sd = model.state_dict()
out = {"losses": losses, "n": len(sd)}
if rank == 0:
    out["sums"] = {k: round(v.sum().item(), 4) for k, v in sd.items()}
    out["shapes"] = {k: list(v.shape) for k, v in sd.items()}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
