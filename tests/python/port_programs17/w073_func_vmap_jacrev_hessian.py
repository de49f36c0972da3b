import torch
from torch.func import vmap, jacrev, jacfwd, hessian, grad, functional_call

W = data(3, 2, seed=1)


def f(x):
    return torch.tanh(x @ W).sum()


xs = data(4, 3, seed=2)
g = vmap(grad(f))(xs)
J = jacrev(lambda x: torch.sin(x) * x.sum())(xs[0])
Jf = jacfwd(lambda x: torch.sin(x) * x.sum())(xs[0])
H = hessian(f)(xs[1])
model = torch.nn.Linear(3, 1)
det(model)
params = {k: v.detach() for k, v in model.named_parameters()}


def loss(p, x, y):
    return ((functional_call(model, p, (x,)) - y) ** 2).mean()


per = vmap(grad(loss), in_dims=(None, 0, 0))(params, xs[:, None], data(4, 1, 1, seed=3))
report(g=g, J=J, same=torch.allclose(J, Jf, atol=1e-6), H=H, pw=per["weight"], pb=per["bias"])
