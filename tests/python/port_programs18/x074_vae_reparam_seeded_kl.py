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
        z = mu + eps * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


m = det(VAE(), scale=0.3)
x = torch.sigmoid(data(4, 6, seed=1))
eps = data(4, 2, seed=2)
recon, mu, logvar = m(x, eps)
bce = F.binary_cross_entropy_with_logits(recon, x, reduction="sum")
kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
(bce + kld).backward()
report(bce=bce, kld=kld, g=m.mu.weight.grad[0], recon=torch.sigmoid(recon[0]))
