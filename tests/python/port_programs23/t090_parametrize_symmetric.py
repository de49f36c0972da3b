import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = det(nn.Linear(3, 3), seed=1)
parametrize.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
sym = torch.allclose(A, A.T)
rep = [n for n, _ in layer.named_parameters()]
orig = layer.parametrizations.weight.original
is_param = parametrize.is_parametrized(layer)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


cnn = det(nn.Conv2d(in_channels=5, out_channels=8, kernel_size=3), seed=2)
parametrize.register_parametrization(cnn, "weight", Skew())
w = cnn.weight
skew = torch.allclose(w, -w.transpose(-1, -2))
x = data(2, 3, seed=3)
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    layer(x).pow(2).sum().backward()
    opt.step()
with parametrize.cached():
    cached = layer.weight is layer.weight
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
report(sym=sym, rep=rep, orig_grad=orig.grad, skew=skew, w=layer.weight, after=[n for n, _ in layer.named_parameters()],
       is_param=[is_param, parametrize.is_parametrized(layer)], cached=cached, orig=orig)
