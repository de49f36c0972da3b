import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.flat = nn.Flatten(start_dim=1)
        self.unflat = nn.Unflatten(1, (2, 6))
        self.id = nn.Identity(54, unused="x")
        self.lin = nn.Linear(6, 6)

    def forward(self, x, *, scale=1.0, residual=None):
        h = self.unflat(self.flat(x))
        h = self.lin(self.id(h)) * scale
        return h if residual is None else h + residual


m = det(Net())
x = data(3, 4, 3)
a = m(x)
b = m(x, scale=2.0, residual=torch.ones(3, 2, 6))
report(a=a.shape, b=b.sum(), fl=nn.Flatten(0, -1)(x).shape, uf=nn.Unflatten(-1, (3, 1))(x).shape, idm=repr(m.id))
