import json, shutil, tempfile
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()


def make(seed):
    net = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
    return DDP(net)


def train(model, opt, seed):
    rng = np.random.default_rng(seed + rank)
    out = []
    for _ in range(2):
        x = meshflow.tensor(rng.standard_normal((4, 3)).astype(np.float32))
        loss = F.mse_loss(model(x), x.sum(1, keepdim=True))
        opt.zero_grad(); loss.backward(); opt.step()
        out.append(round(loss.item(), 5))
    return out


model = make(17)
opt = meshflow.optim.Adam(model.parameters(), lr=0.02)
first = train(model, opt, 170)
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
dcp.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3}, checkpoint_id=box[0])
cont = train(model, opt, 180)
model2 = make(5)
opt2 = meshflow.optim.Adam(model2.parameters(), lr=0.02)
first2 = train(model2, opt2, 190)
state = {"model": model2.state_dict(), "optimizer": opt2.state_dict(), "epoch": 0}
dcp.load(state, checkpoint_id=box[0])
model2.load_state_dict(state["model"])
opt2.load_state_dict(state["optimizer"])
resumed = train(model2, opt2, 180)
dist.barrier()
if rank == 0:
    shutil.rmtree(box[0])
print("RESULT", rank, json.dumps({"first": first, "cont": cont, "resumed": resumed, "epoch": state["epoch"]}))
dist.destroy_process_group()
