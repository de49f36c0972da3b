import json, os, tempfile, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
M = mf.placement("cpu", ranks=[[0, 1], [2, 3]] if world == 4 else [[0]])   # data x tensor mesh
B, S = mf.sbp.broadcast, mf.sbp.split

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up, self.down = nn.Linear(6, 8), nn.Linear(8, 6)
    def forward(self, x):
        shift = mf.arange(6).float() / 6        # made in forward, local
        h = F.gelu(self.up(x + shift))
        return self.down(h) + x

mf.manual_seed(50)
net = MLP()
plan = {"up.weight": (B, S(0)), "up.bias": (B, S(0)), "down.weight": (B, S(1))}
net.to_global(M, lambda n, p: plan.get(n, (B, B)))
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(50)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), placement=M, sbp=(S(0), B))
    y = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), placement=M, sbp=(S(0), B))
    loss = F.mse_loss(net(x), y); opt.zero_grad(); loss.backward(); opt.step(); losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "up": net.up.weight.sum().item()}))
