import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(40)
model = nn.Sequential(nn.Conv2d(3, 4, 3, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
model.to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(40)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 3, 6, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=mesh, sbp=mf.sbp.split(0))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
model.eval()
with mf.no_grad():
    out = model(x).sum().item()
print("RESULT", json.dumps({"losses": losses, "rm": model[1].running_mean.tolist(), "eval": out}))
