import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(20)
model = nn.Sequential(nn.Embedding(30, 8), nn.Linear(8, 24), nn.ReLU(), nn.Linear(24, 30))
model.to_global(mesh, lambda n, p: {"0.weight": mf.sbp.split(1), "1.weight": mf.sbp.split(0), "1.bias": mf.sbp.split(0), "3.weight": mf.sbp.split(1)}.get(n, mf.sbp.broadcast))
opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
rng = np.random.default_rng(20)
norms, losses = [], []
for _ in range(3):
    tok = mf.tensor(rng.integers(0, 30, (6,)), placement=mesh, sbp=mf.sbp.broadcast)
    tgt = mf.tensor(rng.integers(0, 30, (6,)), placement=mesh, sbp=mf.sbp.broadcast)
    loss = F.cross_entropy(model(tok), tgt) * 10
    opt.zero_grad()
    loss.backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    nn.utils.clip_grad_value_(model.parameters(), 0.05)
    opt.step()
    norms.append(total.item()); losses.append(loss.item())
print("RESULT", json.dumps({"norms": norms, "losses": losses}))
