import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(41)
model = nn.Sequential(nn.Linear(5, 10), nn.Dropout(0.5), nn.ReLU(), nn.Linear(10, 3)).to_global(mesh, mf.sbp.broadcast)

class Eval(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
    def build(self, x):
        with mf.no_grad():
            return self.model(x).softmax(-1)

model.eval()
ev = Eval()
rng = np.random.default_rng(41)
accs = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((7, 5)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 3, 7), placement=mesh, sbp=mf.sbp.split(0))
    p = ev(x)
    accs.append([(p.argmax(1) == y).float().mean().item(), p.max().item()])
print("RESULT", json.dumps(accs))
