import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(101)
net = nn.Sequential(nn.Linear(5, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 3))
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
class TrainGraph(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
class EvalGraph(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net
    def build(self, x):
        return F.softmax(self.net(x), -1)
train, ev = TrainGraph(), EvalGraph()
rng = np.random.default_rng(101)
def batch(n=8):
    return (mf.tensor(rng.standard_normal((n, 5)).astype(np.float32) + 1.0, placement=P, sbp=S(0)),
            mf.tensor(rng.integers(0, 3, n), placement=P, sbp=S(0)))
losses, evals = [], []
xe, _ = batch()
for epoch in range(2):
    net.train()
    for _ in range(2):
        x, y = batch()
        losses.append(train(x, y).item())
    net.eval()
    evals.append(ev(xe).sum(0).tolist())
net.train()
x, y = batch()
eager = F.cross_entropy(net(x), y)
print("RESULT", rank, json.dumps({"losses": losses, "evals": evals, "rm": net[1].running_mean.tolist(),
                                  "nbt": int(net[1].num_batches_tracked.item()), "training": net.training}))
