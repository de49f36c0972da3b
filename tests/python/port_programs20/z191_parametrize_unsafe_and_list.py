import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Positive(nn.Module):
    def forward(self, X):
        return torch.nn.functional.softplus(X)


class Transposed(nn.Module):
    def forward(self, X):
        return X.T


lin = det(nn.Linear(3, 2))
P.register_parametrization(lin, "bias", Positive())
P.register_parametrization(lin, "weight", Transposed(), unsafe=True)
shape = lin.weight.shape
b = lin.bias
lst = lin.parametrizations.bias
x = data(2, 3)
out = x @ lin.weight + lin.bias
out.sum().backward()
report(shape=shape, b=b, n=len(lst), out=out, g=lin.parametrizations.weight.original.grad, typ=type(lst).__name__)
