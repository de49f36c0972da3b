# TOL 1e-3
import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm
D = nn.Sequential(spectral_norm(nn.Linear(4, 8)), nn.LeakyReLU(0.1), spectral_norm(nn.Linear(8, 1)))
with torch.no_grad():
    for i, layer in enumerate([D[0], D[2]]):
        layer.weight_orig.copy_(data(*layer.weight_orig.shape, seed=i))
        layer.bias.copy_(data(*layer.bias.shape, seed=10 + i) * 0.1)
        layer.weight_u.copy_(torch.nn.functional.normalize(data(layer.weight_orig.shape[0], seed=20 + i), dim=0))
        layer.weight_v.copy_(torch.nn.functional.normalize(data(layer.weight_orig.shape[1], seed=30 + i), dim=0))
opt = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
real = data(6, 4, seed=3); fake = data(6, 4, seed=4)
hist = []
for _ in range(3):
    opt.zero_grad()
    loss = torch.relu(1.0 - D(real)).mean() + torch.relu(1.0 + D(fake)).mean()
    loss.backward(); opt.step(); hist.append(loss.item())
sigma = torch.linalg.matrix_norm(D[0].weight.detach(), ord=2)
report(hist=hist, sigma=sigma, names=sorted(n for n, _ in D.named_parameters()), bufs=sorted(n for n, _ in D.named_buffers()))
