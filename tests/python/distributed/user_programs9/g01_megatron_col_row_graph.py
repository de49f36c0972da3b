import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
class Col(nn.Module):
    def __init__(self, i, o):
        super().__init__(); self.lin = nn.Linear(i, o)
    def forward(self, x): return self.lin(x)
class Row(nn.Module):
    def __init__(self, i, o):
        super().__init__(); self.lin = nn.Linear(i, o)
    def forward(self, x): return self.lin(x)
class MLP(nn.Module):
    def __init__(self):
        super().__init__(); self.up = Col(4, 8); self.down = Row(8, 4)
    def forward(self, x): return self.down(F.gelu(self.up(x)))
mlp = MLP(); init_(mlp, 101)
mlp.to_global(P, B)  # a local tensor's to_global(S(0)) would take it as this rank's part
mlp.up.lin.weight = nn.Parameter(mlp.up.lin.weight.to_global(sbp=S(0)))
mlp.up.lin.bias = nn.Parameter(mlp.up.lin.bias.to_global(sbp=S(0)))
mlp.down.lin.weight = nn.Parameter(mlp.down.lin.weight.to_global(sbp=S(1)))
opt = mf.optim.AdamW(mlp.parameters(), lr=1e-2)
sched = mf.optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=3)
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.mlp = mlp; self.add_optimizer(opt, lr_sch=sched)
    def build(self, x):
        loss = (self.mlp(x) - x).pow(2).mean(); loss.backward(); return loss
step = Step()
rng = np.random.default_rng(101)
losses = [step(mf.tensor(rng.standard_normal((5, 4)).astype(np.float32), placement=P, sbp=B)).item() for _ in range(4)]
w = mlp.down.lin.weight
print("RESULT", rank, json.dumps({"losses": losses, "sbp": str(w.sbp), "w": w.to_global(sbp=B).to_local().sum().item()}))
