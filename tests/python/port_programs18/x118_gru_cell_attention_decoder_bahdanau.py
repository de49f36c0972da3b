import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.W = nn.Linear(d, d, bias=False)
        self.U = nn.Linear(d, d)
        self.v = nn.Linear(d, 1, bias=False)

    def forward(self, h, enc, mask):
        e = self.v(torch.tanh(self.W(h)[:, None] + self.U(enc))).squeeze(-1)
        e = e.masked_fill(~mask, float("-inf"))
        a = e.softmax(-1)
        return torch.bmm(a.unsqueeze(1), enc).squeeze(1), a


d = 4
att = det(Attn(d), seed=1)
cell = det(nn.GRUCell(2 * d, d), seed=2)
enc = data(2, 5, d, seed=3)
mask = torch.tensor([[True] * 5, [True, True, True, False, False]])
h = torch.zeros(2, d)
inp = torch.zeros(2, d)
alphas = []
for t in range(3):
    ctx, a = att(h, enc, mask)
    h = cell(torch.cat([inp, ctx], -1), h)
    inp = h
    alphas.append(a)
report(h=h, a=alphas[-1], masked_zero=bool((alphas[-1][1, 3:] == 0).all()))
