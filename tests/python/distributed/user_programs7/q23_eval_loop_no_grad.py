import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(23)
model = nn.Sequential(nn.Linear(5, 12), nn.Dropout(0.5), nn.ReLU(), nn.Linear(12, 4)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(23)
Xtr = rng.standard_normal((2, 8, 5)).astype(np.float32); Ytr = rng.integers(0, 4, (2, 8))
Xva = rng.standard_normal((3, 6, 5)).astype(np.float32); Yva = rng.integers(0, 4, (3, 6))

def evaluate():
    model.eval()
    total_loss, correct, count = 0.0, 0, 0
    with mf.no_grad():
        for i in range(3):
            x = mf.tensor(Xva[i], placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(Yva[i], placement=mesh, sbp=mf.sbp.split(0))
            logits = model(x)
            total_loss += F.cross_entropy(logits, y, reduction="sum").item()
            correct += (logits.argmax(dim=1) == y).sum().item()
            count += y.size(0)
    model.train()
    return total_loss / count, correct / count

history = [evaluate()]
for i in range(2):
    model.eval()   # deterministic training for comparison: dropout off
    x = mf.tensor(Xtr[i], placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(Ytr[i], placement=mesh, sbp=mf.sbp.split(0))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    history.append(evaluate())
print("RESULT", json.dumps(history))
