import json, copy, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

def make():
    mf.manual_seed(21)
    n = nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
    n.to_global(P, B)
    return n

eager, lazy = make(), make()
opt_e = mf.optim.Adam(eager.parameters(), lr=1e-2)
opt_g = mf.optim.Adam(lazy.parameters(), lr=1e-2)

class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = lazy; self.add_optimizer(opt_g)
    def build(self, x, y):
        loss = F.mse_loss(self.net(x), y); loss.backward(); return loss

step = Step()
rng = np.random.default_rng(21)
le, lg = [], []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.standard_normal((6, 2)).astype(np.float32), placement=P, sbp=S(0))
    loss = F.mse_loss(eager(x), y); opt_e.zero_grad(); loss.backward(); opt_e.step()
    le.append(loss.item()); lg.append(step(x, y).item())
same = max(abs(a - b) for a, b in zip(eager.state_dict().values(), lazy.state_dict().values())
           for a, b in [((a.float() - b.float()).abs().max().item(), 0.0)])
print("RESULT", rank, json.dumps({"eager": le, "graph": lg, "max_diff_small": same < 1e-4,
                                  "rv": lazy[1].running_var.tolist()}))
