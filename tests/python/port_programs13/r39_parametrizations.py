import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize
lin = det(nn.Linear(4, 3))
w0 = lin.weight.detach().clone()
wn = parametrizations.weight_norm(lin, name="weight", dim=0)
names = sorted(n for n, _ in wn.named_parameters())
g = wn.parametrizations.weight.original0
v = wn.parametrizations.weight.original1
same = torch.allclose(wn.weight, w0, atol=1e-6)
x = data(5, 4)
wn(x).sum().backward()
gg = g.grad.clone()
conv = det(nn.Conv2d(2, 4, 3))
sn = parametrizations.spectral_norm(conv)
snames = sorted(n for n, _ in sn.named_parameters())
is_p = parametrize.is_parametrized(sn, "weight")
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
l2 = det(nn.Linear(3, 3))
parametrize.register_parametrization(l2, "weight", Symmetric())
sym = torch.allclose(l2.weight, l2.weight.T)
with parametrize.cached():
    a = l2.weight; b = l2.weight
parametrize.remove_parametrizations(l2, "weight", leave_parametrized=True)
after = sorted(n for n, _ in l2.named_parameters())
sd_keys = sorted(wn.state_dict().keys())
report(names=names, g=g, same=same, gg=gg, snames=snames, is_p=is_p, sym=sym, cached=a is b, after=after, w=l2.weight, sd_keys=sd_keys)
