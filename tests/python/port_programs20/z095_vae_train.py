import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc21 = nn.Linear(8, 2)
        self.fc22 = nn.Linear(8, 2)
        self.fc3 = nn.Linear(2, 8)
        self.fc4 = nn.Linear(8, 6)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        return self.decode(self.reparameterize(mu, logvar, eps)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x, reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


m = det(VAE())
x = torch.sigmoid(data(5, 6))
eps = data(5, 2, seed=9)
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
ls = []
for _ in range(4):
    opt.zero_grad()
    recon, mu, logvar = m(x, eps)
    loss = loss_function(recon, x, mu, logvar)
    loss.backward()
    opt.step()
    ls.append(loss.item())
report(ls=ls, mu=mu, recon=m.decode(torch.zeros(1, 2)))
