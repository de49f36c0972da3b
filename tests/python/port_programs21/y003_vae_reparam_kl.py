import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 8)
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 6))

    def forward(self, x, eps):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar)
        z = mu + eps * std
        return self.dec(z), mu, logvar


model = det(VAE(), seed=5)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.sigmoid(data(10, 6, seed=1))
losses = []
for it in range(6):
    eps = data(10, 2, seed=20 + it)
    recon, mu, logvar = model(x, eps)
    rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (rec + kld) / x.size(0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append([rec.item(), kld.item()])
report(losses=losses, mu=mu.detach())
