import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(24)
model = nn.Linear(6, 3).to_global(mesh, mf.sbp.broadcast)
rng = np.random.default_rng(24)
x = mf.tensor(rng.standard_normal((10, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
y = mf.tensor(rng.integers(0, 3, 10), placement=mesh, sbp=mf.sbp.split(0))
with mf.no_grad():
    logits = model(x)
    probs = F.softmax(logits, dim=-1)
    pred = probs.argmax(-1)
    acc = (pred == y).float().mean().item()
    correct = int((pred == y).sum())
    conf = mf.zeros(3, 3, dtype=mf.long)
    for t, p in zip(y.tolist(), pred.tolist()):
        conf[t, p] += 1
    top2 = probs.topk(2, dim=1).indices
    top2_acc = (top2 == y.unsqueeze(1)).any(dim=1).float().mean().item()
    per_class = [((pred == c) & (y == c)).sum().item() / max(1, (y == c).sum().item()) for c in range(3)]
    bc = mf.bincount(pred, minlength=3).tolist()
    maxp = probs.max().item()
print("RESULT", json.dumps({"acc": acc, "correct": correct, "conf": conf.tolist(), "top2": top2_acc, "per_class": per_class, "bincount": bc, "maxp": maxp}))
