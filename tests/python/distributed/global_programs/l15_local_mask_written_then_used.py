import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class MaskedAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc, self.dec = nn.Linear(6, 3), nn.Linear(3, 6)
        self.g = mf.Generator().manual_seed(5)
    def forward(self, x):
        keep = mf.ones(x.size(1), dtype=mf.bool)
        keep[mf.randperm(x.size(1), generator=self.g)[:2]] = False
        z = self.enc(x * keep)
        order = mf.randperm(x.size(0), generator=self.g)
        return self.dec(z), keep, order

mf.manual_seed(15)
m = MaskedAE(); m.to_global(P, B)
opt = mf.optim.SGD(m.parameters(), lr=0.1)
rng = np.random.default_rng(15)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 6)).astype(np.float32), placement=P, sbp=S(0))
    out, keep, order = m(x)
    loss = ((out - x)[order] ** 2)[:, ~keep].mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "keep": keep.tolist()}))
