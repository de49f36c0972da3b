import torch
import torch.nn as nn
import torch.distributions as D


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 4)
        self.dec = nn.Linear(2, 6)

    def forward(self, x, eps):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        std = torch.exp(0.5 * logvar)
        z = mu + eps * std
        return self.dec(z), mu, logvar


vae = det(VAE())
x = data(8, 6)
opt = torch.optim.Adam(vae.parameters(), lr=0.01)
hist = []
for step in range(5):
    eps = data(8, 2, seed=100 + step)
    rec, mu, logvar = vae(x, eps)
    rec_loss = nn.functional.mse_loss(rec, x, reduction="sum") / 8
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / 8
    kl_d = D.kl_divergence(D.Normal(mu, (0.5 * logvar).exp()), D.Normal(0, 1)).sum() / 8
    beta = min(1.0, step / 4)
    loss = rec_loss + beta * kld
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append([rec_loss.item(), kld.item(), kl_d.item()])
report(hist=hist, mu=mu[0])
