import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad, jacrev, hessian

model = det(nn.Linear(3, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
x = data(5, 3)
y = data(5, 1, seed=3)


def loss_fn(p, xb, yb):
    out = functional_call(model, p, (xb.unsqueeze(0),))
    return ((out - yb) ** 2).mean()


per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
full = grad(loss_fn)(params, x[:1], y[:1])
f = lambda t: (t ** 3).sum()
report(ps_w=per_sample["weight"], ps_b=per_sample["bias"], full_w=full["weight"],
       vm=vmap(torch.dot)(x, x), jac=jacrev(lambda t: t.sin())(x[0]), hess=hessian(f)(x[0]),
       out=functional_call(model, {"weight": torch.ones(1, 3), "bias": torch.zeros(1)}, (x,)))
