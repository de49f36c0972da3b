import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(24)
net = nn.Sequential(nn.Conv1d(2, 3, 3, bias=False), nn.BatchNorm1d(3), nn.ReLU(), nn.Flatten(), nn.Linear(12, 2)); net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(24)
def batch():
    return (mf.tensor(rng.standard_normal((4, 2, 6)).astype(np.float32), placement=P, sbp=S(0)),
            mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0)))
losses = []
x, y = batch()
loss = F.cross_entropy(net(x), y); loss.backward(); opt.step(); losses.append(loss.item())
opt.zero_grad(set_to_none=False)
zero = all(float(p.grad.abs().sum()) == 0.0 for p in net.parameters())
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
step = Step()
for _ in range(3):
    losses.append(step(*batch()).item())
sd = net.state_dict()
print("RESULT", rank, json.dumps({"losses": losses, "zero": zero, "nbt": int(sd["1.num_batches_tracked"].item()),
                                  "rv": sd["1.running_var"].tolist(), "adam_step": int(opt.state_dict()["state"][0]["step"])}))
