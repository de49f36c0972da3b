import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Scale(nn.Module):
    def forward(self, X):
        return X * 2

    def right_inverse(self, X):
        return X / 2


layer = det(nn.Linear(3, 3))
parametrize.register_parametrization(layer, "weight", Symmetric())
w = layer.weight
sym = torch.equal(w, w.T)
is_p = parametrize.is_parametrized(layer)
keys = sorted(layer.state_dict().keys())
orig = layer.parametrizations.weight.original
x = data(2, 3)
y = layer(x)
y.sum().backward()
g = orig.grad
l2 = det(nn.Linear(2, 2))
parametrize.register_parametrization(l2, "weight", Scale())
before = l2.weight.clone()
l2.weight = torch.eye(2)
after = l2.weight
orig2 = l2.parametrizations.weight.original
with parametrize.cached():
    c1 = layer.weight
    c2 = layer.weight
cached_same = c1 is c2
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
report(sym=sym, is_p=is_p, keys=keys, y=y, g=g, before=before, after=after, orig2=orig2, cached_same=cached_same,
       after_remove=sorted(layer.state_dict().keys()), still=parametrize.is_parametrized(layer), cls=type(layer).__name__)
