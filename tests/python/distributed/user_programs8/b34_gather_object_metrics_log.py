import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Linear(4, 1)
with mf.no_grad():
    net.weight.copy_(mf.tensor([[0.3, -0.3, 0.2, 0.1]])); net.bias.fill_(-0.1)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(25 + rank)
log = []
for epoch in range(2):
    x = mf.from_numpy(rng.standard_normal((3 + rank, 4)).astype(np.float32))
    loss = model(x).abs().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    stats = {"rank": rank, "loss": round(loss.item(), 5), "n": len(x)}
    allstats = [None] * world
    dist.all_gather_object(allstats, stats)
    if rank == 0:
        tot = sum(s["n"] for s in allstats)
        log.append(sum(s["loss"] * s["n"] for s in allstats) / tot)
out = [log]
dist.broadcast_object_list(out, src=0)
print("RESULT", rank, json.dumps({"log": out[0], "w": net.weight.tolist()}))
dist.destroy_process_group()
