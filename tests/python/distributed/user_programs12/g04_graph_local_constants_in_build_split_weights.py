import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(6, 12)
        self.out = nn.Linear(12, 1)
    def forward(self, x):
        t = x.shape[1]
        decay = mf.pow(mf.full((t,), 0.9), mf.arange(t, dtype=mf.float32)).flip(0)   # local weights
        h = F.relu(self.proj(x)) * decay.view(1, t, 1)
        pooled = h.sum(1) / decay.sum()
        bias = mf.ones(1, 1) * 0.5
        return self.out(pooled) + bias

mf.manual_seed(104)
net = Scorer()
net.to_global(P, lambda name, p: S(0) if name.startswith("proj") else (S(1) if name == "out.weight" else B))
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
class Train(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.mse_loss(self.net(x).squeeze(1), y); loss.backward(); return loss
train = Train()
rng = np.random.default_rng(104)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 5, 6)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.standard_normal(6).astype(np.float32), placement=P, sbp=S(0))
    losses.append(train(x, y).item())
x = mf.tensor(rng.standard_normal((6, 5, 6)).astype(np.float32), placement=P, sbp=S(0))
with mf.no_grad():
    eager = net(x).squeeze(1)
print("RESULT", rank, json.dumps({"losses": losses, "eager": eager.tolist(), "out_w": net.out.weight.sum().item()}))
