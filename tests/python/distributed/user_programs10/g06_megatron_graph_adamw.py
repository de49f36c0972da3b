import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.col = nn.Linear(4, 8); self.row = nn.Linear(8, 4); self.norm = nn.LayerNorm(4)
    def forward(self, x):
        return self.norm(x + self.row(F.relu(self.col(x))))
net = Block(); init_(net, 46)
net.to_global(P, B)
net.col.weight = nn.Parameter(net.col.weight.detach().to_global(P, S(0)))
net.col.bias = nn.Parameter(net.col.bias.detach().to_global(P, S(0)))
net.row.weight = nn.Parameter(net.row.weight.detach().to_global(P, S(1)))
opt = mf.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.01)
class Train(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.mse_loss(self.net(x), y); loss.backward(); return loss
train = Train()
rng = np.random.default_rng(46)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((5, 4)).astype(np.float32), placement=P, sbp=B)
    y = mf.tensor(rng.standard_normal((5, 4)).astype(np.float32), placement=P, sbp=B)
    losses.append(train(x, y).item())
print("RESULT", rank, json.dumps({"losses": losses, "col": net.col.weight.sum().item(), "row": net.row.weight.sum().item()}))
