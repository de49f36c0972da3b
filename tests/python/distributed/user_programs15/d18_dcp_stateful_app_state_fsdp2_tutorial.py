import json, shutil, tempfile
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.checkpoint.stateful import Stateful
from meshflow.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.fsdp import fully_shard


class AppState(Stateful):
    def __init__(self, model, optimizer=None):
        self.model = model
        self.optimizer = optimizer

    def state_dict(self):
        model_state_dict, optimizer_state_dict = get_state_dict(self.model, self.optimizer)
        return {"model": model_state_dict, "optim": optimizer_state_dict}

    def load_state_dict(self, state_dict):
        set_state_dict(self.model, self.optimizer, model_state_dict=state_dict["model"],
                       optim_state_dict=state_dict["optim"])


class ToyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net1 = nn.Linear(16, 16)
        self.relu = nn.ReLU()
        self.net2 = nn.Linear(16, 8)

    def forward(self, x):
        return self.net2(self.relu(self.net1(x)))


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))


def make(seed):
    m = ToyModel()
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.2))
    fully_shard(m, mesh=mesh)
    return m, meshflow.optim.Adam(m.parameters(), lr=0.1)


def step(m, o, rng):
    o.zero_grad()
    loss = m(meshflow.tensor(rng.standard_normal((8, 16)).astype(np.float32))).sum()
    loss.backward()
    o.step()
    return round(loss.item(), 4)


model, optimizer = make(18)
rng = np.random.default_rng(180 + rank)
before = [step(model, optimizer, rng) for _ in range(2)]
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
dcp.save({"app": AppState(model, optimizer)}, checkpoint_id=box[0])
after = [step(model, optimizer, np.random.default_rng(190 + rank)) for _ in range(2)]
model2, optimizer2 = make(3)
state_dict = {"app": AppState(model2, optimizer2)}
dcp.load(state_dict=state_dict, checkpoint_id=box[0])
again = [step(model2, optimizer2, np.random.default_rng(190 + rank)) for _ in range(2)]
dist.barrier()
if rank == 0:
    shutil.rmtree(box[0])
print("RESULT", rank, json.dumps({"before": before, "after": after, "again": again}))
dist.destroy_process_group()
