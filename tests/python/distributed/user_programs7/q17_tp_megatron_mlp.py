import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
tp = mf.placement("cpu", ranks=list(range(world)))
S, B = mf.sbp.split, mf.sbp.broadcast

class ColumnParallelLinear(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.weight = nn.Parameter(mf.randn(o, i) * 0.1)
        self.bias = nn.Parameter(mf.zeros(o))
    def forward(self, x):
        return F.linear(x, self.weight, self.bias)

class RowParallelLinear(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.weight = nn.Parameter(mf.randn(o, i) * 0.1)
        self.bias = nn.Parameter(mf.zeros(o))
    def forward(self, x):
        return F.linear(x, self.weight) + self.bias

class ParallelMLP(nn.Module):
    def __init__(self, d=8, ffn=32):
        super().__init__()
        self.dense_h_to_4h = ColumnParallelLinear(d, ffn)
        self.dense_4h_to_h = RowParallelLinear(ffn, d)
    def forward(self, x):
        return self.dense_4h_to_h(F.gelu(self.dense_h_to_4h(x)))

mf.manual_seed(17)
mlp = ParallelMLP()
def sbp_of(name, p):
    if name.startswith("dense_h_to_4h"):
        return S(0)
    if name == "dense_4h_to_h.weight":
        return S(1)
    return B
mlp.to_global(tp, sbp_of)
opt = mf.optim.Adam(mlp.parameters(), lr=1e-2)
rng = np.random.default_rng(17)
x = mf.tensor(rng.standard_normal((5, 8)).astype(np.float32), placement=tp, sbp=B)
target = mf.tensor(rng.standard_normal((5, 8)).astype(np.float32), placement=tp, sbp=B)
losses = []
for _ in range(4):
    out = mlp(x)
    loss = F.mse_loss(out, target)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
w1 = mlp.dense_h_to_4h.weight
print("RESULT", json.dumps({"losses": losses, "w1": w1.numpy().sum().item(), 
                            "gshape": list(w1.shape)}))
