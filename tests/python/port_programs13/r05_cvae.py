import torch
import torch.nn as nn
import torch.nn.functional as F
class CVAE(nn.Module):
    def __init__(self, x_dim=12, c_dim=3, z_dim=2):
        super().__init__()
        self.c_dim = c_dim
        self.enc = nn.Linear(x_dim + c_dim, 16)
        self.mu = nn.Linear(16, z_dim)
        self.logvar = nn.Linear(16, z_dim)
        self.dec = nn.Sequential(nn.Linear(z_dim + c_dim, 16), nn.ReLU(), nn.Linear(16, x_dim))
    def forward(self, x, c, eps):
        c = F.one_hot(c, self.c_dim).float()
        h = F.relu(self.enc(torch.cat([x, c], dim=1)))
        mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar)
        z = mu + eps * std
        return torch.sigmoid(self.dec(torch.cat([z, c], 1))), mu, logvar
def loss_fn(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (bce + kld) / x.size(0), bce, kld
model = det(CVAE())
x = torch.sigmoid(data(8, 12, seed=3) * 2)
x = (x > 0.5).float()
c = ints(3, 8)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
hist = []
for epoch in range(5):
    eps = data(8, 2, seed=10 + epoch)
    recon, mu, logvar = model(x, c, eps)
    loss, bce, kld = loss_fn(recon, x, mu, logvar)
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append([loss.item(), bce.item(), kld.item()])
with torch.no_grad():
    z = torch.zeros(3, 2)
    samples = model.dec(torch.cat([z, torch.eye(3)], 1)).sigmoid()
report(hist=hist, samples=samples)
