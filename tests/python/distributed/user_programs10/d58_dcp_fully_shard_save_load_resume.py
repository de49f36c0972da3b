import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.checkpoint.state_dict import (StateDictOptions, get_model_state_dict, get_optimizer_state_dict,
                                                     set_model_state_dict, set_optimizer_state_dict)
from meshflow.distributed.fsdp import fully_shard
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def make():
    net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 4), nn.Tanh(), nn.Linear(4, 2))
    g = np.random.default_rng(11)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    for layer in net[::2]:
        fully_shard(layer)
    fully_shard(net)
    return net, meshflow.optim.Adam(net.parameters(), lr=0.03)
rng = np.random.default_rng(900 + rank)
batches = [(meshflow.from_numpy(rng.standard_normal((4, 6)).astype(np.float32)),
            meshflow.from_numpy(rng.standard_normal((4, 2)).astype(np.float32))) for _ in range(4)]
def step(model, opt, i):
    x, y = batches[i]
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.item()
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
model, opt = make()
losses = [step(model, opt, i) for i in range(2)]
state = {"model": get_model_state_dict(model), "optim": get_optimizer_state_dict(model, opt)}
dcp.save_state_dict(state, storage_writer=dcp.FileSystemWriter(box[0]))
model, opt = make()
state = {"model": get_model_state_dict(model), "optim": get_optimizer_state_dict(model, opt)}
dcp.load_state_dict(state, storage_reader=dcp.FileSystemReader(box[0]))
set_model_state_dict(model, state["model"])
set_optimizer_state_dict(model, opt, state["optim"])
losses += [step(model, opt, i) for i in range(2, 4)]
full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
sums = {k: round(v.sum().item(), 5) for k, v in sorted(full.items())}
print("RESULT", rank, json.dumps({"losses": losses, "full": sums, "shard0": list(model[0].weight.to_local().shape)}))
dist.destroy_process_group()
