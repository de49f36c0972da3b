import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 12)
        self.mu = nn.Linear(12, 3)
        self.logvar = nn.Linear(12, 3)
        self.fc3 = nn.Linear(3, 12)
        self.fc4 = nn.Linear(12, 20)

    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar, eps):
        return mu + eps * torch.exp(0.5 * logvar)

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar, eps)
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z)))), mu, logvar


vae = det(VAE())
x = torch.sigmoid(data(8, 20))
opt = torch.optim.Adam(vae.parameters(), lr=2e-3)
hist = []
for i in range(4):
    eps = data(8, 3, seed=10 + i)
    recon, mu, logvar = vae(x, eps)
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    beta = min(1.0, i / 2)
    loss = (bce + beta * kld) / x.size(0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append([bce.item(), kld.item()])
with torch.no_grad():
    z = torch.linspace(-2, 2, 5).unsqueeze(1).repeat(1, 3)
    samples = torch.sigmoid(vae.fc4(F.relu(vae.fc3(z))))
    normal = torch.distributions.Normal(mu, (0.5 * logvar).exp())
    kl2 = torch.distributions.kl_divergence(normal, torch.distributions.Normal(torch.zeros_like(mu), torch.ones_like(mu))).sum()
report(hist=hist, samples=samples[:, :4], kl2=kl2)
