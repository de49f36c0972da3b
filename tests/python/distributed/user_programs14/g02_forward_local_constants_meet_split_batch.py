import json, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Net(nn.Module):
    def __init__(self, d=6, classes=4):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.bn = nn.BatchNorm1d(d)
        self.head = nn.Linear(d, classes)
        self.register_buffer("scale", mf.ones(d))
    def forward(self, x):
        n, d = x.shape
        eye = mf.eye(d)                                           # local, made here
        freqs = mf.exp(-math.log(100.0) * mf.arange(d).float() / d)  # local sinusoid
        h = x @ (self.proj.weight + 0.1 * eye).t() + self.proj.bias
        h = h + mf.sin(freqs) * 0.05
        keep = mf.tensor([1.0, 1.0, 0.0, 1.0, 1.0, 0.5])          # local per-feature weights
        h = self.bn(h) * keep * self.scale
        idx = mf.tensor([0, 2, 4])                                # local index tensor
        h = h.index_fill(1, idx, 0.0) + h[:, idx].mean(1, keepdim=True)
        zeros = mf.zeros(n, 1)                                    # sized by the global batch
        h = mf.cat([h[:, :-1], zeros], dim=1)
        mask = h > 0
        h = mf.where(mask, h, mf.zeros_like(h) - 0.01)
        return self.head(h), h.new_ones(n).sum()

mf.manual_seed(142)
net = Net(); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(142)
losses, counts = [], []
for _ in range(4):
    x = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 4, 8), placement=P, sbp=S(0))
    logits, n = net(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item()); counts.append(n.item())
net.eval()
with mf.no_grad():
    ev, _ = net(mf.tensor(np.ones((2, 6), np.float32), placement=P, sbp=B))
print("RESULT", rank, json.dumps({"losses": losses, "counts": counts, "ev": ev.tolist(),
                                  "rm": net.bn.running_mean.tolist(), "w": net.proj.weight.sum().item()}))
