import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank = int(os.environ.get("RANK", 0))
world = int(os.environ.get("WORLD_SIZE", 1))
local_rank = int(os.environ.get("LOCAL_RANK", 0))
device = "cpu"
mesh = mf.placement(device, ranks=list(range(world)))
assert rank == mf.env.get_rank() and world == mf.env.get_world_size(), (rank, world)
rng = np.random.default_rng(16)
data = rng.standard_normal((12, 4)).astype(np.float32)
target = data @ np.array([[1.0], [-2.0], [0.5], [3.0]], dtype=np.float32)
per = len(data) // world
mine = slice(rank * per, (rank + 1) * per)
x = mf.tensor(data[mine]).to_global(mesh, mf.sbp.split(0))
y = mf.tensor(target[mine]).to_global(mesh, mf.sbp.split(0))
mf.manual_seed(16)
model = nn.Linear(4, 1).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
for _ in range(5):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", json.dumps({"loss": loss.item(), "w": model.weight.numpy().round(5).tolist(), "lr_ok": 0 <= local_rank <= rank}))
