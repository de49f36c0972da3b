import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, k, dilation=1):
        super().__init__(cin, cout, k, dilation=dilation)
        self.left = (k - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


class ResidualBlock(nn.Module):
    def __init__(self, ch, skip, dilation):
        super().__init__()
        self.filter = CausalConv1d(ch, ch, 2, dilation)
        self.gate = CausalConv1d(ch, ch, 2, dilation)
        self.res = nn.Conv1d(ch, ch, 1)
        self.skip = nn.Conv1d(ch, skip, 1)

    def forward(self, x):
        z = torch.tanh(self.filter(x)) * torch.sigmoid(self.gate(x))
        return x + self.res(z), self.skip(z)


class WaveNet(nn.Module):
    def __init__(self, q=16, ch=6, skip=8, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.inp = CausalConv1d(q, ch, 2)
        self.blocks = nn.ModuleList(ResidualBlock(ch, skip, d) for d in dilations)
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(skip, skip, 1), nn.ReLU(), nn.Conv1d(skip, q, 1))

    def forward(self, x):
        x = self.inp(x)
        skips = 0
        for b in self.blocks:
            x, s = b(x)
            skips = skips + s
        return self.out(skips)


def mu_law_encode(x, q=16):
    mu = q - 1
    y = torch.sign(x) * torch.log1p(mu * x.abs()) / torch.log1p(torch.tensor(float(mu)))
    return ((y + 1) / 2 * mu + 0.5).long()


audio = torch.tanh(data(2, 40))
codes = mu_law_encode(audio)
x = F.one_hot(codes, 16).permute(0, 2, 1).float()
net = det(WaveNet())
logits = net(x[:, :, :-1])
loss = F.cross_entropy(logits, codes[:, 1:])
loss.backward()
# causality: changing the future does not change the past
x2 = x.clone(); x2[:, :, 30:] = 0
same = torch.allclose(net(x2)[:, :, :30], net(x)[:, :, :30])
rf = 1 + sum((2 - 1) * d for d in (1, 2, 4, 8)) + 1
report(codes=codes[0, :10], loss=loss.item(), same=same, rf=rf, grad_in=net.inp.weight.grad.abs().sum().item(), logits_shape=logits.shape)
