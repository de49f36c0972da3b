import torch
import torch.nn as nn


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(12, 6), nn.ELU(alpha=0.5), nn.Linear(6, 3))
        self.decoder = nn.Sequential(nn.Linear(3, 6), nn.SELU(), nn.Linear(6, 12))

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z


def kl_sparsity(rho, z):
    rho_hat = torch.sigmoid(z).mean(0)
    return (rho * torch.log(rho / rho_hat) + (1 - rho) * torch.log((1 - rho) / (1 - rho_hat))).sum()


ae = det(AE(), scale=0.3)
clean = data(10, 12)
noise_mask = (data(10, 12, seed=3) > 0.8).float()
noisy = clean * (1 - noise_mask)
opt = torch.optim.Adadelta(ae.parameters(), lr=1.0)
mse = nn.MSELoss()
hist = []
for e in range(3):
    recon, z = ae(noisy)
    loss = mse(recon, clean) + 1e-2 * kl_sparsity(0.05, z)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
with torch.no_grad():
    recon, z = ae(noisy)
err = (recon - clean).pow(2).mean(dim=1)
report(hist=hist, err=err, top=err.topk(3).indices, z=z[0], dropped=int(noise_mask.sum()))
