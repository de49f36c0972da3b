import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, k, dilation=1):
        super().__init__(cin, cout, k, padding=0, dilation=dilation)
        self.left = (k - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


class ResBlock(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.filt = CausalConv1d(ch, ch, 2, dilation)
        self.gate = CausalConv1d(ch, ch, 2, dilation)
        self.res = nn.Conv1d(ch, ch, 1)
        self.skip = nn.Conv1d(ch, ch, 1)

    def forward(self, x):
        z = torch.tanh(self.filt(x)) * torch.sigmoid(self.gate(x))
        return x + self.res(z), self.skip(z)


class WaveNet(nn.Module):
    def __init__(self, q=8, ch=6, layers=4):
        super().__init__()
        self.inp = CausalConv1d(q, ch, 2)
        self.blocks = nn.ModuleList(ResBlock(ch, 2 ** i) for i in range(layers))
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(ch, ch, 1), nn.ReLU(), nn.Conv1d(ch, q, 1))

    def forward(self, x):
        h = self.inp(x)
        skips = 0
        for b in self.blocks:
            h, s = b(h)
            skips = skips + s
        return self.out(skips)


def mu_law(x, q=8):
    mu = q - 1
    y = torch.sign(x) * torch.log1p(mu * x.abs()) / torch.log1p(torch.tensor(float(mu)))
    return ((y + 1) / 2 * mu + 0.5).long()


wav = torch.sin(torch.linspace(0, 12, 40)) * 0.8
codes = mu_law(wav)
x = F.one_hot(codes, 8).t().float().unsqueeze(0)
net = det(WaveNet(), scale=0.3)
logits = net(x[:, :, :-1])
loss = F.cross_entropy(logits, codes[1:].unsqueeze(0))
loss.backward()
x2 = x.clone()
x2[..., 20:] = 0
causal_ok = torch.allclose(net(x2[:, :, :-1])[..., :19], logits[..., :19], atol=1e-6)
report(codes=codes[:10], loss=loss, causal_ok=causal_ok, rf=1 + sum(b.filt.left for b in net.blocks) + net.inp.left,
       g=net.inp.weight.grad.abs().sum())
