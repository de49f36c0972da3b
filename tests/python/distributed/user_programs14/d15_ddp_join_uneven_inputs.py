import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Linear(3, 2)
with meshflow.no_grad():
    net.weight.copy_(meshflow.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]])); net.bias.fill_(0.05)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(400 + rank)
batches = [meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)) for _ in range(3 if rank == 0 else 5)]
losses = []
with model.join():
    for x in batches:
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"n": len(losses), "losses": losses, "w": net.weight.flatten().tolist(),
                                  "b": net.bias.tolist()}))
dist.destroy_process_group()
