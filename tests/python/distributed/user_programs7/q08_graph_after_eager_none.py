import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(8)
# tensor-parallel pair, as Megatron's MLP
model = nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 6))
model.to_global(mesh, lambda name, p: mf.sbp.split(0) if name.startswith("0.") else (mf.sbp.split(1) if name == "2.weight" else mf.sbp.broadcast))
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(8)
x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.broadcast)
t = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.broadcast)

loss = (model(x) - t).pow(2).mean()
loss.backward()
opt.step()
opt.zero_grad(set_to_none=True)
has_grad = [p.grad is None for p in model.parameters()]

class Step(nn.Graph):
    def __init__(self):
        super().__init__()
        self.m = model
        self.add_optimizer(opt)
    def build(self, x, t):
        l = (self.m(x) - t).pow(2).mean()
        l.backward()
        return l

s = Step()
losses = [loss.item()] + [s(x, t).item() for _ in range(3)]
print("RESULT", json.dumps({"none": has_grad, "losses": losses, "w2": model[2].weight.numpy().sum().item()}))
