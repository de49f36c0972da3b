import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class RandomFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(12, 2)
    def forward(self, x):
        g = mf.Generator().manual_seed(11)
        proj = mf.randn(x.size(1), 6, generator=g)
        z = x @ proj                                 # global @ local
        rot = mf.eye(6) - 0.1 * mf.ones(6, 6)
        z2 = mf.matmul(rot, z.T).T                   # local @ global
        feats = mf.cat([z.cos(), z2.sin()], 1)
        return self.head(mf.einsum("bi,ij->bj", feats, mf.eye(12)))

mf.manual_seed(10)
m = RandomFeatures(); m.to_global(P, B)
m.head.weight = nn.Parameter(m.head.weight.to_global(P, S(1)))
opt = mf.optim.SGD(m.parameters(), lr=0.1)
rng = np.random.default_rng(10)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 3)).astype(np.float32), placement=P, sbp=S(0))
    loss = m(x).square().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses}))
