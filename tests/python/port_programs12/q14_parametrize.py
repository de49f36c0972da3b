import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X - X.T)
class Positive(nn.Module):
    def forward(self, X):
        return torch.nn.functional.softplus(X)
    def right_inverse(self, Y):
        return torch.log(torch.expm1(Y))
layer = det(nn.Linear(4, 4))
P.register_parametrization(layer, "weight", Symmetric())
sym = torch.allclose(layer.weight, layer.weight.T)
x = data(3, 4)
out = layer(x); out.sum().backward()
g = layer.parametrizations.weight.original.grad
names = sorted(n for n, _ in layer.named_parameters())
sd = sorted(layer.state_dict().keys())
lin2 = det(nn.Linear(3, 3), seed=4)
P.register_parametrization(lin2, "bias", Positive())
lin2.bias = torch.tensor([0.5, 1.0, 2.0])
orig = lin2.parametrizations.bias.original.detach().clone()
with P.cached():
    a = lin2.bias; b = lin2.bias
lin3 = det(nn.Linear(3, 3), seed=5)
P.register_parametrization(lin3, "weight", MatrixExponential())
ortho = torch.dist(lin3.weight @ lin3.weight.T, torch.eye(3)).item() < 1e-5
opt = torch.optim.SGD(lin3.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad(); (lin3(data(5, 3)) - 1).pow(2).mean().backward(); opt.step()
still = torch.dist(lin3.weight @ lin3.weight.T, torch.eye(3)).item() < 1e-5
is_p = P.is_parametrized(lin3), P.is_parametrized(lin3, "bias")
P.remove_parametrizations(lin3, "weight", leave_parametrized=True)
after = sorted(n for n, _ in lin3.named_parameters())
op = det(nn.Linear(4, 4), seed=6)
nn.utils.parametrizations.orthogonal(op)
qq = op.weight @ op.weight.T
sn = det(nn.Linear(5, 4), seed=7)
sn = nn.utils.parametrizations.spectral_norm(sn)
for _ in range(30):
    sn(data(2, 5))
top = torch.linalg.matrix_norm(sn.weight.detach(), ord=2)
report(sym=sym, out=out, g=g, names=names, sd=sd, orig=orig, bias=lin2.bias, same=a is b, ortho=ortho, still=still, is_p=list(is_p), after=after,
       qq=torch.allclose(qq, torch.eye(4), atol=1e-5), top=top.item(), snk=sorted(sn.state_dict().keys()))
