import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(141)
net = nn.Sequential(nn.Linear(6, 10, bias=False), nn.BatchNorm1d(10, momentum=0.3), nn.GELU(),
                    nn.Linear(10, 10, bias=False), nn.BatchNorm1d(10, affine=False), nn.ReLU(), nn.Linear(10, 3))
net.to_global(P, B)
opt = mf.optim.AdamW(net.parameters(), lr=5e-3, weight_decay=0.01)
class Train(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
class Infer(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net
    def build(self, x):
        return self.net(x).argmax(-1), self.net(x).softmax(-1)
train, infer = Train(), Infer()
rng = np.random.default_rng(141)
xe = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), placement=P, sbp=S(0))
log = []
for epoch in range(3):
    net.train()
    for _ in range(2):
        x = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32) * 2 + 0.5, placement=P, sbp=S(0))
        y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
        log.append(round(train(x, y).item(), 6))
    net.eval()
    pred, prob = infer(xe)
    with mf.no_grad():
        eager = net(xe).softmax(-1)
    log.append([pred.tolist(), prob.sum(0).tolist(), (prob - eager).abs().max().item() < 1e-5])
net.train()
with mf.no_grad():
    train_mode = net(xe).softmax(-1).sum(0).tolist()   # batch statistics, and the running ones move
print("RESULT", rank, json.dumps({"log": log, "train_mode": train_mode, "rm": net[1].running_mean.tolist(),
                                  "rv": net[4].running_var.sum().item(), "nbt": int(net[4].num_batches_tracked.item())}))
