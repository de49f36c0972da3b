import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

def make():
    mf.manual_seed(133)
    m = nn.Sequential(nn.Linear(6, 10), nn.BatchNorm1d(10), nn.ReLU(), nn.Linear(10, 10), nn.BatchNorm1d(10, affine=False), nn.Tanh(), nn.Linear(10, 2))
    m.to_global(P, B)
    return m

class Infer(nn.Graph):
    def __init__(self, m):
        super().__init__()
        self.m = m
    def build(self, x):
        return self.m(x)

net = make()
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
infer = Infer(net)
rng = np.random.default_rng(133)
xe = mf.tensor(rng.standard_normal((6, 6)).astype(np.float32), placement=P, sbp=S(0))
log = []
for epoch in range(3):
    net.train()
    for _ in range(2):
        x = mf.tensor((rng.standard_normal((8, 6)) * 2 + 1).astype(np.float32), placement=P, sbp=S(0))
        y = mf.tensor(rng.integers(0, 2, 8), placement=P, sbp=S(0))
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        log.append(loss.item())
    net.eval()
    log.append(infer(xe).sum().item())
path = os.path.join(tempfile.gettempdir(), "r13_g03.pt")
mf.save(net.state_dict(), path)
again = make()
again.load_state_dict(mf.load(path))
again.eval()
with mf.no_grad():
    same = (again(xe) - infer(xe)).abs().max().item()
print("RESULT", rank, json.dumps({"log": log, "rm": net[1].running_mean.sum().item(), "rv": net[4].running_var.sum().item(),
                                  "same": same < 1e-5, "nbt": int(again[4].num_batches_tracked.item())}))
