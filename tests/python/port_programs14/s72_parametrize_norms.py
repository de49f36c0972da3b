import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


lin = det(nn.Linear(3, 3))
parametrize.register_parametrization(lin, "weight", Symmetric())
W = lin.weight
wn = parametrizations.weight_norm(det(nn.Linear(4, 2), 1), name="weight", dim=0)
sn = parametrizations.spectral_norm(det(nn.Linear(4, 3), 2), n_power_iterations=5)
x = data(2, 4)
wn_out = wn(x)
wn_out.sum().backward()
orig = list(dict(wn.named_parameters()).keys())
sn.eval()
sigma = torch.linalg.matrix_norm(sn.weight, ord=2)
report(sym=torch.equal(W, W.T), names=[n for n, _ in lin.named_parameters()], wn=wn_out, orig=orig, g0=wn.parametrizations.weight.original0.grad,
       sigma_close=abs(sigma.item() - 1.0) < 0.05, is_p=parametrize.is_parametrized(lin), sd=sorted(wn.state_dict().keys()))
