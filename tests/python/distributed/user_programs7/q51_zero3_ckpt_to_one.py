import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(51)
model = nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 4)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2, zero_stage=3)
rng = np.random.default_rng(51)
X = rng.standard_normal((4, 4, 8)).astype(np.float32); Y = rng.integers(0, 4, (4, 4))
for i in range(2):
    loss = F.cross_entropy(model(mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0))), mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0)))
    opt.zero_grad(); loss.backward(); opt.step()
ck = os.environ.get("CKPT_DIR", "/tmp/rank2_ck")
mf.save(model.state_dict(), os.path.join(ck, f"q51_w{world}.pt"))
mf.save(opt.state_dict(), os.path.join(ck, f"q51_w{world}.opt"))
print("RESULT", json.dumps({"loss": loss.item()}))
