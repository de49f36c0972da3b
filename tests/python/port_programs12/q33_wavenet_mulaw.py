import math
import torch
import torch.nn as nn
import torch.nn.functional as F
def mu_law_encoding(x, quantization_channels=16):
    mu = quantization_channels - 1.0
    x_mu = torch.sign(x) * torch.log1p(mu * torch.abs(x)) / math.log1p(mu)
    return ((x_mu + 1) / 2 * mu + 0.5).to(torch.int64)
def mu_law_decoding(x_mu, quantization_channels=16):
    mu = quantization_channels - 1.0
    x = (x_mu.float() / mu) * 2 - 1.0
    return torch.sign(x) * (torch.exp(torch.abs(x) * math.log1p(mu)) - 1.0) / mu
class ResBlock(nn.Module):
    def __init__(self, C, d):
        super().__init__(); self.d = d
        self.filt = nn.Conv1d(C, C, 2, dilation=d); self.gate = nn.Conv1d(C, C, 2, dilation=d)
        self.res = nn.Conv1d(C, C, 1); self.skip = nn.Conv1d(C, C, 1)
    def forward(self, x):
        xp = F.pad(x, (self.d, 0))
        z = torch.tanh(self.filt(xp)) * torch.sigmoid(self.gate(xp))
        return x + self.res(z), self.skip(z)
class WaveNet(nn.Module):
    def __init__(self, Q=16, C=8):
        super().__init__()
        self.inp = nn.Conv1d(Q, C, 1)
        self.blocks = nn.ModuleList([ResBlock(C, 2 ** i) for i in range(3)])
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(C, C, 1), nn.ReLU(), nn.Conv1d(C, Q, 1))
    def forward(self, x):
        h = self.inp(F.one_hot(x, 16).float().transpose(1, 2))
        skips = 0
        for b in self.blocks:
            h, s = b(h); skips = skips + s
        return self.out(skips)
t = torch.linspace(0, 1, 33)
wave = 0.8 * torch.sin(2 * math.pi * 3 * t) * torch.exp(-t)
q = mu_law_encoding(wave)
rec = mu_law_decoding(q)
model = det(WaveNet(), scale=0.3)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
x, y = q[:-1].unsqueeze(0), q[1:].unsqueeze(0)
losses = []
for _ in range(5):
    opt.zero_grad(); logits = model(x); loss = F.cross_entropy(logits, y); loss.backward(); opt.step(); losses.append(loss.item())
with torch.no_grad():
    gen = q[:8].clone()
    for _ in range(5):
        nxt = model(gen.unsqueeze(0))[0, :, -1].argmax()
        gen = torch.cat([gen, nxt.view(1)])
report(q=q, rec_err=(rec - wave).abs().max(), losses=losses, gen=gen, dtype=str(q.dtype))
