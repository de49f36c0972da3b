import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(6)
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(6)
def batch():
    x = rng.standard_normal((6, 5)).astype(np.float32)
    return (mf.tensor(x, placement=mesh, sbp=mf.sbp.split(0)),
            mf.tensor(x.sum(1, keepdims=True), placement=mesh, sbp=mf.sbp.split(0)))

# warm-up steps in eager mode; the last one leaves its gradients in .grad
for _ in range(2):
    x, y = batch()
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
x, y = batch()
F.mse_loss(model(x), y).backward()   # grads set, no step

class G(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        return loss

g = G()
losses = []
for _ in range(3):
    x, y = batch()
    losses.append(g(x, y).item())
w = model[0].weight.sum().item()
print("RESULT", json.dumps({"losses": losses, "w": w}))
