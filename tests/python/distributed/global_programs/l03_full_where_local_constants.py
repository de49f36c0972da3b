import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)
    def forward(self, x):
        h = self.fc(x)
        scale = mf.full((1, 6), 0.5)
        floor = mf.zeros(h.shape)
        h = mf.where(h > 0, h * scale, floor)
        bias = mf.linspace(-1, 1, 6)
        return h + bias

mf.manual_seed(3)
m = Gate(); m.to_global(P, B)
opt = mf.optim.Adam(m.parameters(), lr=1e-2)
rng = np.random.default_rng(3)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 6)).astype(np.float32), placement=P, sbp=S(0))
    loss = m(x).abs().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "w": m.fc.weight.sum().item()}))
