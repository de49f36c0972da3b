import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 6, 3, padding=1)
        self.bn = nn.BatchNorm1d(6)
        self.fc = nn.Linear(6, 2)
    def forward(self, x):
        t = x.shape[-1]
        window = mf.zeros(t)                    # local, written in place
        window[1:t - 1] = 1.0
        window[0] = 0.5
        h = F.relu(self.bn(self.conv(x))) * window
        weights = mf.linspace(1.0, 2.0, t)      # local
        pooled = (h * weights).sum(-1) / weights.sum()
        eye = mf.eye(6)[:, :4]                  # local slice
        extra = pooled @ eye @ eye.t()
        return self.fc(pooled + 0.1 * extra)

mf.manual_seed(134)
net = Gated(); net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=0.01)
rng = np.random.default_rng(134)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 3, 7)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 6), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
net.eval()
with mf.no_grad():
    ev = net(mf.tensor(np.ones((2, 3, 7), np.float32), placement=P, sbp=S(0)))
print("RESULT", rank, json.dumps({"losses": losses, "ev": ev.sum().item(), "fc": net.fc.weight.sum().item(),
                                  "rm": net.bn.running_mean.sum().item()}))
