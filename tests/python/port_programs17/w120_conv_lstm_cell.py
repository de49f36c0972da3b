import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, cin, ch, k=3):
        super().__init__()
        self.ch = ch
        self.conv = nn.Conv2d(cin + ch, 4 * ch, k, padding=k // 2)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = torch.split(self.conv(torch.cat([x, h], 1)), self.ch, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


cell = det(ConvLSTMCell(2, 3))
seq = data(4, 1, 2, 5, 5, seed=1)
h = c = torch.zeros(1, 3, 5, 5)
for t in range(4):
    h, c = cell(seq[t], (h, c))
h.mean().backward()
report(h=h[0, 0], c=c[0, 2, 2], g=cell.conv.bias.grad)
