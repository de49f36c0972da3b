import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Pick(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(mf.randn(10, 4))
        self.fc = nn.Linear(4, 2)
    def forward(self, x):
        idx = mf.tensor([1, 3, 3, 7])
        rows = self.table[idx]                       # local index into a global table
        sel = x.index_select(1, mf.tensor([0, 2]))   # global batch, local column ids
        g = mf.gather(self.table, 0, mf.tensor([[0, 1, 2, 3], [9, 8, 7, 6]]))
        return self.fc(rows).sum() + sel.sum() * 0.1 + g.mean(), sel

mf.manual_seed(7)
m = Pick(); m.to_global(P, B)
opt = mf.optim.SGD(m.parameters(), lr=0.1)
rng = np.random.default_rng(7)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0))
    loss, sel = m(x)
    loss = loss.square()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "table": m.table.sum(1).tolist(), "sel": sel.shape[1]}))
