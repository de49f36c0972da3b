import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(14)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 5)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.AdamW(model.parameters(), lr=1e-3)
rng = np.random.default_rng(14)
losses, dtypes = [], []
for i in range(3):
    x = mf.tensor(rng.standard_normal((8, 16)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 5, 8), placement=mesh, sbp=mf.sbp.split(0))
    with mf.autocast(device_type="cpu", dtype=mf.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    dtypes.append(str(logits.dtype))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps({"losses": losses, "dtypes": dtypes, "wdtype": str(model[0].weight.grad.dtype)}))
