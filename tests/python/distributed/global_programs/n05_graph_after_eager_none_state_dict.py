import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(25)
net = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6, affine=False), nn.GELU(), nn.Linear(6, 2)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, weight_decay=1e-3)
rng = np.random.default_rng(25)
def batch():
    return (mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=P, sbp=S(0)),
            mf.tensor(rng.integers(0, 2, 8), placement=P, sbp=S(0)))
x, y = batch()
loss = F.cross_entropy(net(x), y); loss.backward(); opt.step(); opt.zero_grad()  # set_to_none
none = all(p.grad is None for p in net.parameters())
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
step = Step()
losses = [loss.item()] + [step(*batch()).item() for _ in range(3)]
sd = net.state_dict()
plain = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6, affine=False), nn.GELU(), nn.Linear(6, 2))
plain.load_state_dict({k: v.to_global(sbp=B).to_local() for k, v in sd.items()})
plain.eval()
out = plain(mf.ones(2, 4))
print("RESULT", rank, json.dumps({"losses": losses, "none": none, "keys": sorted(sd), "out": out.tolist()}))
