import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.utils.data import DataLoader, TensorDataset

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
rng = np.random.default_rng(22)
ds = TensorDataset(mf.tensor(rng.standard_normal((15, 4)).astype(np.float32)), mf.tensor(rng.integers(0, 3, 15)))
loader = DataLoader(ds, batch_size=7, shuffle=False)   # batches of 7, 7, 1
mf.manual_seed(22)
model = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 3)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
losses, sizes = [], []
for x, y in loader:
    if x.shape[0] < 2:
        model.eval()
    xg = mf.tensor(x.numpy(), placement=mesh, sbp=mf.sbp.split(0))
    yg = mf.tensor(y.numpy(), placement=mesh, sbp=mf.sbp.split(0))
    loss = F.cross_entropy(model(xg), yg)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item()); sizes.append(xg.shape[0])
    model.train()
print("RESULT", json.dumps({"losses": losses, "sizes": sizes, "rm": model[1].running_mean.numpy().tolist()}))
