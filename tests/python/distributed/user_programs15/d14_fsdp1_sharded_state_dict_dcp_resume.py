import json, shutil, tempfile
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType

dist.init_process_group("gloo")
rank = dist.get_rank()


def make(seed):
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
    return FSDP(net, device_id=meshflow.device("cpu"))


def train(model, opt, seed, steps=2):
    rng = np.random.default_rng(seed + rank)
    out = []
    for _ in range(steps):
        x = meshflow.tensor(rng.standard_normal((3, 4)).astype(np.float32))
        loss = F.mse_loss(model(x), x[:, :2])
        opt.zero_grad(); loss.backward(); opt.step()
        out.append(round(loss.item(), 5))
    return out


model = make(14)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
first = train(model, opt, 140)
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
with FSDP.state_dict_type(model, StateDictType.SHARDED_STATE_DICT):
    state = {"model": model.state_dict()}
    dcp.save(state, checkpoint_id=box[0])
cont = train(model, opt, 150)
other = make(99)
with FSDP.state_dict_type(other, StateDictType.SHARDED_STATE_DICT):
    state = {"model": other.state_dict()}
    dcp.load(state, checkpoint_id=box[0])
    other.load_state_dict(state["model"])
opt2 = meshflow.optim.SGD(other.parameters(), lr=0.1)
resumed = train(other, opt2, 150)
dist.barrier()
if rank == 0:
    shutil.rmtree(box[0])
print("RESULT", rank, json.dumps({"first": first, "cont": cont, "resumed": resumed, "keys": sorted(state["model"])}))
dist.destroy_process_group()
