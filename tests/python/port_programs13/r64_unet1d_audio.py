import torch
import torch.nn as nn
import torch.nn.functional as F
class Down(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.conv = nn.Conv1d(i, o, 5, stride=2, padding=2)
        self.norm = nn.GroupNorm(2, o)
    def forward(self, x):
        return F.leaky_relu(self.norm(self.conv(x)), 0.1)
class Up(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.conv = nn.ConvTranspose1d(i, o, 4, stride=2, padding=1)
    def forward(self, x, skip):
        x = self.conv(x)
        if x.size(-1) != skip.size(-1):
            x = F.pad(x, (0, skip.size(-1) - x.size(-1)))
        return F.glu(torch.cat([x, skip], 1), dim=1)
class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1, self.d2 = Down(1, 4), Down(4, 8)
        self.u1, self.u2 = Up(8, 4), Up(4, 1)
    def forward(self, x):
        s1 = self.d1(x); s2 = self.d2(s1)
        y = self.u1(s2, s1)
        return self.u2(y, x)
net = det(Denoiser(), 0, 0.2)
t = torch.linspace(0, 1, 50)
clean = torch.sin(2 * torch.pi * 5 * t).view(1, 1, -1).repeat(2, 1, 1)
noisy = clean + 0.3 * data(2, 1, 50)
opt = torch.optim.Adam(net.parameters(), 1e-3)
L = []
for _ in range(3):
    out = net(noisy)
    loss = F.l1_loss(out, clean) + F.mse_loss(out, clean)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
snr = 10 * torch.log10(clean.pow(2).sum() / (clean - out).pow(2).sum())
report(L=L, shape=list(out.shape), snr=snr, pi=torch.pi)
