import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def run(broadcast_buffers, rank):
    net = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))
    g = np.random.default_rng(7)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
    model = DDP(net, broadcast_buffers=broadcast_buffers)
    opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
    rng = np.random.default_rng(70 + rank)
    for _ in range(3):
        x = meshflow.from_numpy((rng.standard_normal((5, 4)) + rank).astype(np.float32))
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with meshflow.no_grad():
        ev = model(meshflow.ones(2, 4))
    return {"rm": [round(v, 4) for v in net[1].running_mean.tolist()], "rv": round(net[1].running_var.sum().item(), 4),
            "ev": [round(v, 4) for v in ev.flatten().tolist()], "w": round(net[0].weight.sum().item(), 4)}

dist.init_process_group("gloo")
rank = dist.get_rank()
print("RESULT", rank, json.dumps({"bb_true": run(True, rank), "bb_false": run(False, rank)}))
dist.destroy_process_group()
