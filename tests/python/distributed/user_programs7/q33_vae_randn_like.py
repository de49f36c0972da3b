import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 16)
        self.mu = nn.Linear(16, 2)
        self.logvar = nn.Linear(16, 2)
        self.dec = nn.Linear(2, 8)
    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        std = mf.exp(0.5 * logvar)
        eps = mf.randn_like(std)
        z = mu + eps * std
        return self.dec(z), mu, logvar

mf.manual_seed(33)
model = VAE().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(33)
x = mf.tensor(rng.standard_normal((6, 8)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    recon, mu, logvar = model(x)
    kld = -0.5 * mf.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = F.mse_loss(recon, x, reduction="sum") + kld
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
