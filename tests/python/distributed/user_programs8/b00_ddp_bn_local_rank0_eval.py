import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mf.manual_seed(22)
net = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1))
rng = np.random.default_rng(22)
W = [rng.standard_normal(s).astype(np.float32) for s in [(5, 3), (5,), (1, 5), (1,)]]
with mf.no_grad():
    for p, w in zip([net[0].weight, net[0].bias, net[3].weight, net[3].bias], W):
        p.copy_(mf.from_numpy(w))
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
X = rng.standard_normal((8, 3)).astype(np.float32); Y = X[:, :1] * 2
per = 8 // world
for _ in range(3):
    out = model(mf.from_numpy(X[rank*per:(rank+1)*per]))
    loss = nn.functional.mse_loss(out, mf.from_numpy(Y[rank*per:(rank+1)*per]))
    opt.zero_grad(); loss.backward(); opt.step()
rm = net[1].running_mean.tolist()
print("RESULT", rank, json.dumps({"rm": rm, "rv": net[1].running_var.tolist(), "nbt": int(net[1].num_batches_tracked)}))
if rank == 0:
    net.eval()
    with mf.no_grad():
        v = net(mf.ones(2, 3))
    print("RESULT", rank, json.dumps({"w": net[3].weight.detach().numpy().round(4).tolist(), "v": v.tolist()}))
dist.barrier()
