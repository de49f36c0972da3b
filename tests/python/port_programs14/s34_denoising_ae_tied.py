import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Parameter(torch.randn(6, 10) * 0.1)
        self.b_enc = nn.Parameter(torch.zeros(6))
        self.b_dec = nn.Parameter(torch.zeros(10))

    def forward(self, x):
        h = torch.sigmoid(F.linear(x, self.W, self.b_enc))
        return F.linear(h, self.W.t(), self.b_dec), h


ae = det(TiedAE())
x = data(12, 10)
noise_mask = (data(12, 10, seed=4) > 0.5).float()
opt = torch.optim.SGD(ae.parameters(), lr=0.1)
hist = []
for _ in range(5):
    noisy = x * (1 - noise_mask)
    rec, h = ae(noisy)
    sparsity = h.mean(0)
    rho = 0.05
    kl = (rho * torch.log(rho / sparsity) + (1 - rho) * torch.log((1 - rho) / (1 - sparsity))).sum()
    loss = F.mse_loss(rec, x) + 0.01 * kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
report(hist=hist, h=h[0], g=ae.W.grad.norm())
