import os
import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 2))
ckpt = mf.load(os.path.join(os.environ.get("CKPT_DIR", "/tmp/rank2_ck"), "q10.pt"), map_location="cpu")
model.load_state_dict(ckpt["model"])
model.to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
opt.load_state_dict(ckpt["optimizer"])
start = ckpt["epoch"]
rng = np.random.default_rng(10)
losses = []
for epoch in range(start, start + 3):
    x = mf.tensor(rng.standard_normal((6, 5)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 2, 6), placement=mesh, sbp=mf.sbp.split(0))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps({"losses": losses, "step": float(opt.state_dict()["state"][0]["step"])}))
