import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvVAE(nn.Module):
    def __init__(self, z=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 4, 4, 2, 1), nn.ReLU(), nn.Conv2d(4, 8, 4, 2, 1), nn.ReLU(), nn.Flatten())
        self.mu = nn.Linear(8 * 2 * 2, z)
        self.logvar = nn.Linear(8 * 2 * 2, z)
        self.fc = nn.Linear(z, 8 * 2 * 2)
        self.dec = nn.Sequential(nn.Unflatten(1, (8, 2, 2)), nn.ConvTranspose2d(8, 4, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(4, 1, 4, 2, 1), nn.Sigmoid())

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def forward(self, x, eps):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        return self.dec(self.fc(self.reparameterize(mu, logvar, eps))), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x, reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD, BCE, KLD


x = torch.sigmoid(data(3, 1, 8, 8))
vae = det(ConvVAE(), scale=0.2)
opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
hist = []
for step in range(3):
    eps = data(3, 4, seed=100 + step)
    recon, mu, logvar = vae(x, eps)
    loss, bce, kld = loss_function(recon, x, mu, logvar)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append([loss.item(), bce.item(), kld.item()])
vae.eval()
with torch.no_grad():
    sample = vae.dec(vae.fc(data(2, 4, seed=7)))
report(hist=hist, sample=sample[0, 0, 0], rshape=recon.shape)
