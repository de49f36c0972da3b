import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


lin = det(nn.Linear(3, 3))
P.register_parametrization(lin, "weight", Symmetric())
w = lin.weight
wn = nn.utils.parametrizations.weight_norm(det(nn.Linear(3, 2), seed=2))
x = data(2, 3, seed=1)
wn(x).sum().backward()
report(sym=torch.equal(w, w.t()), keys=sorted(lin.state_dict().keys()), is_p=P.is_parametrized(lin),
       wn_keys=sorted(wn.state_dict().keys()), g0=wn.parametrizations.weight.original0.grad.flatten(),
       out=lin(x))
