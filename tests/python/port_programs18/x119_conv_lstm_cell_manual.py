import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, i, h, k=3):
        super().__init__()
        self.h = h
        self.conv = nn.Conv2d(i + h, 4 * h, k, padding=k // 2)

    def forward(self, x, state):
        hc, cc = state
        cc_i, cc_f, cc_o, cc_g = torch.split(self.conv(torch.cat([x, hc], 1)), self.h, dim=1)
        i, f, o, g = torch.sigmoid(cc_i), torch.sigmoid(cc_f), torch.sigmoid(cc_o), torch.tanh(cc_g)
        c = f * cc + i * g
        return o * torch.tanh(c), c


cell = det(ConvLSTMCell(1, 2), scale=0.3)
seq = data(3, 2, 1, 4, 4, seed=1)
h = c = torch.zeros(2, 2, 4, 4)
for t in range(3):
    h, c = cell(seq[t], (h, c))
h.mean().backward()
report(h=h[0, 0], c=c[1, 1, 0], g=cell.conv.weight.grad[0, 0])
