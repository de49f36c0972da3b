import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Aug(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 3)
        self.cls = nn.Parameter(mf.randn(1, 1, 4))
    def forward(self, x):
        ones = mf.ones(x.size(0), 1)
        h = mf.cat([x, ones], dim=1)             # bias column
        z = self.fc(h)
        pair = mf.stack([z, mf.zeros_like(z)], dim=0).sum(0)
        tok = mf.cat([self.cls.expand(x.size(0), 1, 4), x.unsqueeze(1)], dim=1)
        return pair, tok

mf.manual_seed(6)
m = Aug(); m.to_global(P, B)
opt = mf.optim.SGD(m.parameters(), lr=0.1)
rng = np.random.default_rng(6)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 4)).astype(np.float32), placement=P, sbp=S(0))
    z, tok = m(x)
    loss = z.square().mean() + tok.mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "tok_shape": list(tok.shape), "cls": m.cls.sum().item()}))
