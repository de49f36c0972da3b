import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(7)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(7)
X = rng.standard_normal((5, 8, 4)).astype(np.float32)
Y = rng.integers(0, 3, (5, 8))
def get(i):
    return mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0)), mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0))

x, y = get(0)
loss = F.cross_entropy(model(x), y)
loss.backward()
opt.step()
opt.zero_grad(set_to_none=False)   # grads are zero tensors now
eager_loss = loss.item()

class TrainStep(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss

step = TrainStep()
losses = [eager_loss]
for i in range(1, 4):
    x, y = get(i)
    losses.append(step(x, y).item())
# back to eager
x, y = get(4)
opt.zero_grad()
loss = F.cross_entropy(model(x), y)
loss.backward()
opt.step()
losses.append(loss.item())
print("RESULT", json.dumps({"losses": losses, "bias": model[2].bias.tolist()}))
