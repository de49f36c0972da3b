import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
g = np.random.default_rng(1)
with mf.no_grad():
    for p in model.parameters():
        p.copy_(mf.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
model.to_global(P, B)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


class Train(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss


class Eval(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model

    def build(self, x):
        return self.model(x).softmax(-1)


train, evaluate = Train(), Eval()
rng = np.random.default_rng(2)
losses = []
for _ in range(4):
    x = mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
    losses.append(round(train(x, y).item(), 5))
model.eval()
probs = evaluate(mf.tensor(np.ones((2, 4), np.float32), placement=P, sbp=B))
print("RESULT", rank, json.dumps({"losses": losses, "probs": [round(v, 5) for v in probs.flatten().tolist()],
                                  "rm": [round(v, 5) for v in model[1].running_mean.tolist()]}))
