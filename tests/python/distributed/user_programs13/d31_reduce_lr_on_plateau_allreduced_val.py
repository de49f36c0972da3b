import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Linear(4, 1)
with meshflow.no_grad():
    net.weight.fill_(0.5); net.bias.fill_(-0.2)
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.5)
sched = meshflow.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
rng = np.random.default_rng(310 + rank)
w_true = meshflow.tensor([[1.0, -1.0, 2.0, 0.5]])
lrs, vals = [], []
for epoch in range(6):
    x = meshflow.from_numpy(rng.standard_normal((8, 4)).astype(np.float32))
    loss = F.mse_loss(model(x), x @ w_true.t())
    opt.zero_grad(); loss.backward(); opt.step()
    val = loss.detach().clone()
    dist.all_reduce(val)
    val /= world
    sched.step(val)
    vals.append(round(val.item(), 4)); lrs.append(opt.param_groups[0]["lr"])
print("RESULT", rank, json.dumps({"vals": vals, "lrs": lrs, "w": [round(v, 4) for v in net.weight.flatten().tolist()]}))
dist.destroy_process_group()
