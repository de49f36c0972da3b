import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm, orthogonal, spectral_norm

lin = det(nn.Linear(4, 3))
wn = weight_norm(lin, name="weight", dim=0)
g0 = wn.parametrizations.weight.original0.detach().clone()
v0 = wn.parametrizations.weight.original1.detach().clone()
w_from = g0 * v0 / v0.norm(dim=1, keepdim=True)
names = sorted(n for n, _ in wn.named_parameters())
x = data(2, 4)
out = wn(x)
out.sum().backward()


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


sym = det(nn.Linear(3, 3), seed=1)
parametrize.register_parametrization(sym, "weight", Symmetric())
W = sym.weight
is_sym = torch.allclose(W, W.T)
sd_keys = list(sym.state_dict().keys())
parametrize.remove_parametrizations(sym, "weight", leave_parametrized=True)
orth = orthogonal(nn.Linear(4, 4))
Q = orth.weight
sn = spectral_norm(det(nn.Linear(5, 4), seed=2))
sn.eval()
sv = torch.linalg.matrix_norm(sn.weight, ord=2)
report(close=torch.allclose(wn.weight, w_from, atol=1e-6), names=names, out=out, g_grad=wn.parametrizations.weight.original0.grad,
       is_sym=is_sym, sd_keys=sd_keys, after=[n for n, _ in sym.named_parameters()], is_param=parametrize.is_parametrized(sym),
       orth=torch.allclose(Q @ Q.T, torch.eye(4), atol=1e-5), sv_le=sv.item() <= 1.0 + 1e-3)
