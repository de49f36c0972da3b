import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(130)
net = nn.Sequential(nn.Conv2d(2, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(6, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                    nn.Flatten(), nn.Linear(8, 4))
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)

class Train(nn.Graph):
    def __init__(self):
        super().__init__()
        self.net = net
        self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y)
        loss.backward()
        return loss

class Eval(nn.Graph):
    def __init__(self):
        super().__init__()
        self.net = net
    def build(self, x):
        return self.net(x).softmax(-1)

train, evaluate = Train(), Eval()
rng = np.random.default_rng(130)
xe = mf.tensor(rng.standard_normal((4, 2, 6, 6)).astype(np.float32), placement=P, sbp=S(0))
log = []
for epoch in range(3):
    net.train()
    for _ in range(2):
        x = mf.tensor(rng.standard_normal((8, 2, 6, 6)).astype(np.float32), placement=P, sbp=S(0))
        y = mf.tensor(rng.integers(0, 4, 8), placement=P, sbp=S(0))
        log.append(train(x, y).item())
    net.eval()
    g = evaluate(xe)
    with mf.no_grad():
        e = net(xe).softmax(-1)
    log.append([g.sum(0).tolist(), (g - e).abs().max().item() < 1e-5])
print("RESULT", rank, json.dumps({"log": log, "rm": net[5].running_mean.tolist(), "rv": net[1].running_var.sum().item(),
                                  "nbt": int(net[1].num_batches_tracked.item()), "w": net[9].weight.sum().item()}))
