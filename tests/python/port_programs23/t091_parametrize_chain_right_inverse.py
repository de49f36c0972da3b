import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


class CayleyMap(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("Id", torch.eye(n))

    def forward(self, X):
        return torch.linalg.solve(self.Id - X, self.Id + X)


layer = det(nn.Linear(3, 3), seed=1)
parametrize.register_parametrization(layer, "weight", Skew())
parametrize.register_parametrization(layer, "weight", CayleyMap(3))
X = layer.weight
orthogonal = torch.dist(X.T @ X, torch.eye(3)) < 1e-5
names = [type(p).__name__ for p in layer.parametrizations.weight]
sym_layer = nn.Linear(3, 3)
parametrize.register_parametrization(sym_layer, "weight", Symmetric())
X2 = torch.tensor([[1.0, 2.0, 3.0], [2.0, 0.5, -1.0], [3.0, -1.0, 4.0]])
sym_layer.weight = X2
eq = torch.allclose(sym_layer.weight, X2)
exp_layer = det(nn.Linear(2, 2), seed=2)
parametrize.register_parametrization(exp_layer, "weight", MatrixExponential())
report(orth=bool(orthogonal), names=names, eq=eq, orig=sym_layer.parametrizations.weight.original, X=X,
       exp=exp_layer.weight, buffers=[n for n, _ in layer.named_buffers()])
