import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def make():
    net = nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.Linear(8, 3))
    g = np.random.default_rng(7)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    model = DDP(net)
    return model, meshflow.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.1)
rng = np.random.default_rng(500 + rank)
batches = [(meshflow.from_numpy(rng.standard_normal((5, 6)).astype(np.float32)), meshflow.from_numpy(rng.integers(0, 3, 5)))
           for _ in range(4)]
def step(model, opt, i):
    x, y = batches[i]
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.item()
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
ckpt = os.path.join(box[0], "step2")
model, opt = make()
losses = [step(model, opt, i) for i in range(2)]
msd, osd = get_state_dict(model, opt)
dcp.save({"model": msd, "optim": osd, "step": 2}, checkpoint_id=ckpt)
model, opt = make()
msd, osd = get_state_dict(model, opt)
keys = sorted(msd)[:2] + sorted(osd["state"])[:1]
state = {"model": msd, "optim": osd, "step": 0}
dcp.load(state, checkpoint_id=ckpt)
set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
losses += [step(model, opt, i) for i in range(2, 4)]
w = [round(p.detach().sum().item(), 5) for p in model.parameters()]
print("RESULT", rank, json.dumps({"step": state["step"], "keys": keys, "losses": losses, "w": w}))
dist.destroy_process_group()
