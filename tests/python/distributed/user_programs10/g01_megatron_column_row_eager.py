import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(6, 8); self.down = nn.Linear(8, 6)
    def forward(self, x):
        return self.down(F.gelu(self.up(x)))
net = MLP(); init_(net, 41)
net.to_global(P, B)
with mf.no_grad():
    net.up.weight = nn.Parameter(net.up.weight.to_global(P, S(0)))
    net.up.bias = nn.Parameter(net.up.bias.to_global(P, S(0)))
    net.down.weight = nn.Parameter(net.down.weight.to_global(P, S(1)))
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(41)
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=P, sbp=B)
    loss = (net(x) - x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "up": net.up.weight.sum().item(), "down": net.down.weight.sum().item(),
                                  "sbp": str(net.down.weight.sbp)}))
