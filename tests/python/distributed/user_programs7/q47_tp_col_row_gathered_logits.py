import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
S, B = mf.sbp.split, mf.sbp.broadcast
mf.manual_seed(47)
body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8), nn.LayerNorm(8))
cls = nn.Linear(8, 10)
body.to_global(mesh, lambda n, p: S(0) if n in ("0.weight", "0.bias") else (S(1) if n == "2.weight" else B))
cls.to_global(mesh, lambda n, p: S(0))   # output-split classifier: logits split on classes
opt = mf.optim.AdamW(list(body.parameters()) + list(cls.parameters()), lr=5e-3)
rng = np.random.default_rng(47)
x = mf.tensor(rng.standard_normal((6, 8)).astype(np.float32), placement=mesh, sbp=B)
y = mf.tensor(rng.integers(0, 10, 6), placement=mesh, sbp=B)
losses = []
for _ in range(3):
    logits = cls(body(x))
    loss = F.cross_entropy(logits, y)
    opt.zero_grad(); loss.backward()
    gn = nn.utils.clip_grad_norm_(list(body.parameters()) + list(cls.parameters()), 1.0)
    opt.step()
    losses.append([loss.item(), gn.item()])
full = logits.to_global(sbp=B).to_local() if world > 1 else logits
print("RESULT", json.dumps({"losses": losses, "top": full.argmax(-1).tolist(), "csum": cls.weight.sum().item()}))
