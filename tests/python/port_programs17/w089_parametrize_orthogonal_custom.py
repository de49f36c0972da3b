import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, X):
        return X * self.s

    def right_inverse(self, X):
        return X / self.s


lin = det(nn.Linear(3, 3))
P.register_parametrization(lin, "weight", Symmetric())
P.register_parametrization(lin, "weight", Scale(2.0))
sym = torch.allclose(lin.weight, lin.weight.T)
x = data(2, 3, seed=1)
lin(x).sum().backward()
orig_g = lin.parametrizations.weight.original.grad
with P.cached():
    a = lin.weight
    b = lin.weight
lin.weight = torch.eye(3)
after = lin.parametrizations.weight.original.clone()
keys = sorted(lin.state_dict().keys())
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
report(sym=sym, og=orig_g, same=a is b, after=after, keys=keys, w=lin.weight, isp=P.is_parametrized(lin))
