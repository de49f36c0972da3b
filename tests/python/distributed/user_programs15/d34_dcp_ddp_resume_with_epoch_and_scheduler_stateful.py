import json, shutil, tempfile
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()


def build(seed):
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
    model = DDP(net)
    opt = meshflow.optim.AdamW(model.parameters(), lr=0.02)
    sched = meshflow.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6)
    return model, opt, sched


def epoch(model, opt, sched, e):
    rng = np.random.default_rng(1000 * e + rank)
    x = meshflow.tensor(rng.standard_normal((4, 3)).astype(np.float32))
    loss = F.mse_loss(model(x), x[:, :2])
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    return round(loss.item(), 5)


model, opt, sched = build(34)
hist = [epoch(model, opt, sched, e) for e in range(2)]
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box)
msd, osd = get_state_dict(model, opt)
dcp.save({"model": msd, "optim": osd, "sched": sched.state_dict(), "epoch": 2}, checkpoint_id=box[0])
cont = [epoch(model, opt, sched, e) for e in range(2, 4)]
model2, opt2, sched2 = build(1)
msd2, osd2 = get_state_dict(model2, opt2)
state = {"model": msd2, "optim": osd2, "sched": sched2.state_dict(), "epoch": 0}
dcp.load(state, checkpoint_id=box[0])
set_state_dict(model2, opt2, model_state_dict=state["model"], optim_state_dict=state["optim"])
sched2.load_state_dict(state["sched"])
res = [epoch(model2, opt2, sched2, e) for e in range(state["epoch"], 4)]
dist.barrier()
if rank == 0:
    shutil.rmtree(box[0])
print("RESULT", rank, json.dumps({"hist": hist, "cont": cont, "res": res, "lr": round(sched2.get_last_lr()[0], 7),
                                  "keys": sorted(msd)}))
dist.destroy_process_group()
