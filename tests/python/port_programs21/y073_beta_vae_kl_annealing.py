import torch
import torch.nn as nn
import torch.nn.functional as F

enc = det(nn.Linear(5, 4), seed=1)
dec = det(nn.Linear(2, 5), seed=2)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
x = data(8, 5, seed=3)
hist = []
for epoch in range(5):
    beta = min(1.0, epoch / 4) * 4.0
    mu, logvar = enc(x).chunk(2, dim=-1)
    z = mu + torch.randn_like(mu) * 0 + data(8, 2, seed=30 + epoch) * torch.exp(0.5 * logvar)
    recon = F.mse_loss(dec(z), x, reduction="sum") / x.size(0)
    kl = torch.mean(-0.5 * torch.sum(1 + logvar - mu ** 2 - logvar.exp(), dim=1), dim=0)
    loss = recon + beta * kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append([beta, recon.item(), kl.item()])
report(hist=hist)
