import torch
import torch.nn.functional as F
from functools import partial
from torch.func import jacrev, jacfwd, vmap, hessian, vjp, jvp, grad

D = 4
weight = data(D, D, seed=1)
bias = data(D, seed=2)
x = data(D, seed=3)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)


xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
jacobian = compute_jac(xp)
jacobian2 = jacrev(predict, argnums=2)(weight, bias, x)
ft_jacobian = jacrev(predict, argnums=(0, 1))(weight, bias, x)
fwd = jacfwd(predict, argnums=2)(weight, bias, x)
hess_api = hessian(predict, argnums=2)(weight, bias, x)
batch_size = 3
xb = data(batch_size, D, seed=4)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, xb)


def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)


batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, xb).movedim(1, 0)


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


hv = hvp(f, (x,), (torch.ones(D),))
report(jac=jacobian, same=torch.allclose(jacobian, jacobian2, atol=1e-6), wjac=ft_jacobian[0].shape, bjac=ft_jacobian[1],
       fwd=torch.allclose(fwd, jacobian2, atol=1e-6), hess=hess_api[0], bj=batch_jacobian0[1],
       bsame=torch.allclose(batch_jacobian0, batch_jacobian1, atol=1e-6), hv=hv)
