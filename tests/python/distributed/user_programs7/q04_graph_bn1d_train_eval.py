import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

mf.manual_seed(4)
model = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3))
model.to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.1)

class TrainGraph(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss

class EvalGraph(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model

    def build(self, x):
        return self.model(x)

rng = np.random.default_rng(4)
train_g, eval_g = TrainGraph(), EvalGraph()
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=mesh, sbp=mf.sbp.split(0))
    model.train()
    losses.append(train_g(x, y).item())
model.eval()
xe = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
out = eval_g(xe)
eager = model(xe)
bn = model[1]
print("RESULT", json.dumps({"losses": losses,
                            "rm": bn.running_mean.numpy().round(5).tolist(),
                            "rv": bn.running_var.numpy().round(5).tolist(),
                            "nbt": int(bn.num_batches_tracked.item()),
                            "eval": out.numpy().round(5).tolist(),
                            "eager_eval": eager.numpy().round(5).tolist()}))
