import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, FullStateDictConfig, FullOptimStateDictConfig

dist.init_process_group("gloo")
rank = dist.get_rank()


def make(seed):
    net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
    return FSDP(net, device_id=meshflow.device("cpu"))


model = make(19)
opt = meshflow.optim.Adam(model.parameters(), lr=0.05)
rng = np.random.default_rng(191 + rank)
for _ in range(2):
    x = meshflow.tensor(rng.standard_normal((4, 3)).astype(np.float32))
    loss = F.mse_loss(model(x), x[:, :2])
    opt.zero_grad(); loss.backward(); opt.step()
with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=False),
                          FullOptimStateDictConfig(rank0_only=False)):
    msd = model.state_dict()
    osd = FSDP.optim_state_dict(model, opt)
keys = sorted(osd["state"].keys())
info = {"keys": [str(k) for k in keys], "groups": len(osd["param_groups"]),
        "step": [float(osd["state"][k]["step"]) for k in keys],
        "avg": {str(k): round(osd["state"][k]["exp_avg"].sum().item(), 5) for k in keys}}
model2 = make(4)
opt2 = meshflow.optim.Adam(model2.parameters(), lr=0.05)
with FSDP.state_dict_type(model2, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=False),
                          FullOptimStateDictConfig(rank0_only=False)):
    model2.load_state_dict(msd)
    opt2.load_state_dict(FSDP.optim_state_dict_to_load(model2, opt2, osd))
rng = np.random.default_rng(200 + rank)
x = meshflow.tensor(rng.standard_normal((4, 3)).astype(np.float32))
for m, o in ((model, opt), (model2, opt2)):
    loss = F.mse_loss(m(x), x[:, :2]); o.zero_grad(); loss.backward(); o.step()
    info.setdefault("next", []).append(round(loss.item(), 5))
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
