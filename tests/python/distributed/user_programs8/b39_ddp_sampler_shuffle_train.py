import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
rng = np.random.default_rng(30)
X = mf.from_numpy(rng.standard_normal((20, 3)).astype(np.float32))
Y = (X @ mf.tensor([[1.0], [-2.0], [0.5]]) + 0.3).squeeze(1)
ds = TensorDataset(X, Y)
net = nn.Linear(3, 1)
with mf.no_grad():
    net.weight.zero_(); net.bias.zero_()
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
sampler = DistributedSampler(ds, shuffle=True, seed=42)
loader = DataLoader(ds, batch_size=4, sampler=sampler)
epoch_losses = []
for epoch in range(3):
    sampler.set_epoch(epoch)
    tot = 0.0
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x).squeeze(1), y)
        opt.zero_grad(); loss.backward(); opt.step()
        tot += loss.item()
    epoch_losses.append(tot)
print("RESULT", rank, json.dumps({"losses": epoch_losses, "w": net.weight.tolist(), "b": net.bias.item()}))
dist.destroy_process_group()
