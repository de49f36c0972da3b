import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
rng = np.random.default_rng(15)
ds = TensorDataset(mf.tensor(rng.standard_normal((24, 5)).astype(np.float32)), mf.tensor(rng.integers(0, 3, 24)))
global_batch = 8
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=3)
loader = DataLoader(ds, batch_size=global_batch // world, sampler=sampler)
mf.manual_seed(15)
model = nn.Linear(5, 3).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.3)
losses = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    for xb, yb in loader:
        xb = xb.to_global(mesh, mf.sbp.split(0))
        yb = yb.to_global(mesh, mf.sbp.split(0))
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(loss.item())
print("RESULT", json.dumps({"losses": losses, "n": len(losses)}))
