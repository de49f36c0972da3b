import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize

lin = det(nn.Linear(4, 3))
wn = parametrizations.weight_norm(lin, name="weight", dim=0)
g = wn.parametrizations.weight.original0
v = wn.parametrizations.weight.original1
x = data(2, 4)
y = wn(x)
y.sum().backward()
orth = parametrizations.orthogonal(det(nn.Linear(3, 3), seed=2))
W = orth.weight
class Sym(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
sym = det(nn.Linear(3, 3), seed=4)
parametrize.register_parametrization(sym, "weight", Sym())
names = [n for n, _ in sym.named_parameters()]
parametrize.remove_parametrizations(sym, "weight", leave_parametrized=True)
report(g=g.detach().flatten(), y=y.detach(), vgrad=v.grad[0], orth=torch.allclose(W @ W.T, torch.eye(3), atol=1e-5), names=names,
       sym=torch.allclose(sym.weight, sym.weight.T), after=[n for n, _ in sym.named_parameters()], is_p=parametrize.is_parametrized(wn))
