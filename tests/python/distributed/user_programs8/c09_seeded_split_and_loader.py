import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.utils.data import DataLoader, TensorDataset, random_split
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
rng = np.random.default_rng(50)
X = mf.from_numpy(rng.standard_normal((30, 4)).astype(np.float32))
Y = mf.from_numpy(rng.integers(0, 3, 30))
train, val = random_split(TensorDataset(X, Y), [24, 6], generator=mf.Generator().manual_seed(42))
g = mf.Generator()
g.manual_seed(1234 + rank)
loader = DataLoader(train, batch_size=6, shuffle=True, generator=g, drop_last=True)
net = nn.Linear(4, 3)
with mf.no_grad():
    net.weight.copy_(mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32) * 0.3)); net.bias.zero_()
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.2)
losses = []
for epoch in range(2):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(round(loss.item(), 6))
with mf.no_grad():
    vx = mf.stack([val[i][0] for i in range(len(val))])
    acc = (model.module(vx).argmax(1) == mf.stack([val[i][1] for i in range(len(val))])).float().mean().item()
print("RESULT", rank, json.dumps({"val_idx": list(val.indices), "losses": losses, "acc": acc}))
dist.destroy_process_group()
