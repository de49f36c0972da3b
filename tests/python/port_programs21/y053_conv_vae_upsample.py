import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten())
        self.fc_mu = nn.Linear(64, 3)
        self.fc_lv = nn.Linear(64, 3)
        self.fc_dec = nn.Linear(3, 64)
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(4, 1, 3, padding=1))

    def forward(self, x, eps):
        h = self.enc(x)
        mu, lv = self.fc_mu(h), self.fc_lv(h)
        z = mu + eps * torch.exp(0.5 * lv)
        return torch.sigmoid(self.dec(self.fc_dec(z).view(-1, 4, 4, 4))), mu, lv


m = det(ConvVAE(), seed=1)
opt = torch.optim.RMSprop(m.parameters(), lr=1e-3)
x = torch.sigmoid(data(2, 1, 8, 8, seed=2))
out = []
for i in range(3):
    r, mu, lv = m(x, data(2, 3, seed=5 + i))
    bce = F.binary_cross_entropy(r, x, reduction="sum")
    kld = -0.5 * torch.mean(torch.sum(1 + lv - mu ** 2 - lv.exp(), dim=1))
    loss = bce + kld
    opt.zero_grad()
    loss.backward()
    opt.step()
    out.append(loss.item())
report(out=out, r=r[0, 0, 0].detach())
