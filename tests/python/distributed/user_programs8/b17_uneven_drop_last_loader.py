import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
rng = np.random.default_rng(11)
X = mf.from_numpy(rng.standard_normal((13, 4)).astype(np.float32))
Y = mf.from_numpy(rng.standard_normal((13, 1)).astype(np.float32))
ds = TensorDataset(X, Y)
net = nn.Linear(4, 1)
with mf.no_grad():
    net.weight.copy_(mf.tensor([[0.1, -0.2, 0.3, 0.05]])); net.bias.fill_(0.1)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
res = {}
for drop in [True, False]:
    sampler = DistributedSampler(ds, shuffle=False)
    loader = DataLoader(ds, batch_size=3, sampler=sampler, drop_last=drop)
    sizes, losses = [], []
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        sizes.append(len(x)); losses.append(loss.item())
    res[str(drop)] = [sizes, losses]
res["w"] = net.weight.tolist()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
