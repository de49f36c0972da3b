import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 4))
        self.g = mf.Generator().manual_seed(7)
    def forward(self, x):
        noise = mf.randn(x.shape, generator=self.g)
        return self.net(x + 0.1 * noise), noise

mf.manual_seed(4)
m = Denoiser(); m.to_global(P, B)
opt = mf.optim.SGD(m.parameters(), lr=0.1)
rng = np.random.default_rng(4)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=P, sbp=S(0))
    pred, noise = m(x)
    loss = F.mse_loss(pred, noise)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses}))
