import torch
import torch.nn as nn
import torch.nn.functional as F


class CatVAE(nn.Module):
    def __init__(self, d=8, K=4, N=3):
        super().__init__()
        self.K, self.N = K, N
        self.enc = nn.Linear(d, K * N)
        self.dec = nn.Linear(K * N, d)

    def forward(self, x, u, tau=0.7):
        logits = self.enc(x).view(-1, self.N, self.K)
        g = -torch.log(-torch.log(u + 1e-20) + 1e-20)
        z = F.softmax((logits + g) / tau, dim=-1)
        q = F.softmax(logits, -1)
        kl = (q * (torch.log(q + 1e-20) - torch.log(torch.tensor(1.0 / self.K)))).sum((1, 2)).mean()
        return torch.sigmoid(self.dec(z.view(-1, self.N * self.K))), kl


m = det(CatVAE())
x = (data(6, 8) > 0).float()
u = torch.from_numpy(__import__("numpy").random.RandomState(4).rand(6, 3, 4).astype("float32"))
opt = torch.optim.Adam(m.parameters(), lr=5e-3)
for _ in range(4):
    recon, kl = m(x, u)
    loss = F.binary_cross_entropy(recon, x, reduction="sum") / 6 + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), kl=kl.item(), recon=recon[0].detach())
