import torch
import torch.nn as nn
import torch.nn.functional as F
class GRN(nn.Module):
    def __init__(self, i, h, o, ctx=None):
        super().__init__()
        self.fc1 = nn.Linear(i, h)
        self.ctx = nn.Linear(ctx, h, bias=False) if ctx else None
        self.fc2 = nn.Linear(h, h)
        self.gate = nn.Linear(h, 2 * o)
        self.skip = nn.Linear(i, o) if i != o else nn.Identity()
        self.ln = nn.LayerNorm(o)
    def forward(self, x, c=None):
        h = self.fc1(x)
        if c is not None:
            h = h + self.ctx(c)
        h = self.fc2(F.elu(h))
        return self.ln(self.skip(x) + F.glu(self.gate(h), dim=-1))
class VSN(nn.Module):
    def __init__(self, n_vars, d):
        super().__init__()
        self.flat = GRN(n_vars * d, d, n_vars)
        self.vars = nn.ModuleList(GRN(d, d, d) for _ in range(n_vars))
    def forward(self, xs):
        w = F.softmax(self.flat(torch.cat(xs, -1)), -1).unsqueeze(-2)
        proc = torch.stack([g(x) for g, x in zip(self.vars, xs)], -1)
        return (proc * w).sum(-1), w.squeeze(-2)
vsn = det(VSN(3, 4), 0, 0.3)
xs = [data(2, 5, 4, seed=s) for s in range(3)]
out, w = vsn(xs)
ctx_grn = det(GRN(4, 6, 4, ctx=2), 1, 0.3)
y = ctx_grn(out, data(2, 5, 2, seed=9))
y.pow(2).mean().backward()
report(out=out[0, 0], w=w[1, 2], y=y[1, 4], g=vsn.flat.gate.weight.grad.abs().sum())
