import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(34)
net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
class Train(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.net(x), y); loss.backward(); return loss
train = Train()
rng = np.random.default_rng(34)
losses = []
for it in range(3):
    x = mf.tensor(rng.standard_normal((4, 3)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0))
    loss = train(x, y)
    if rank == 0:
        losses.append(loss.item())
        print(f"it {it}: {loss.item():.4f} w0 {net[0].weight[0, 0].item():.4f}")
out = None
if rank == 0:
    with mf.no_grad():
        out = net(mf.ones(1, 3, placement=P, sbp=B)).tolist()
print("RESULT", rank, json.dumps({"losses": losses if rank == 0 else None, "out": out}))
