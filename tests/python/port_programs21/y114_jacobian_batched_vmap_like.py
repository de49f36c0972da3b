import torch
from torch.autograd.functional import jacobian, vjp, jvp

W = data(3, 4, seed=1)


def f(x):
    return torch.tanh(x @ W.T)


xs = data(2, 4, seed=2)
J = jacobian(f, xs)
per = torch.stack([jacobian(f, x) for x in xs])
diag = torch.einsum("bibj->bij", J)
_, v = vjp(f, xs, torch.ones(2, 3))
_, u = jvp(f, xs, torch.ones(2, 4))
Jst = jacobian(f, xs, strategy="forward-mode", vectorize=True)
report(J=J.shape, per=per, same=torch.allclose(diag, per, atol=1e-6), v=v, u=u, fwd=torch.allclose(Jst, J, atol=1e-6))
