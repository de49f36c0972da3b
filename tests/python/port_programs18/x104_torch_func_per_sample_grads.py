import torch
import torch.nn as nn
from torch.func import functional_call, grad, vmap

m = det(nn.Linear(3, 2))
params = {k: v.detach() for k, v in m.named_parameters()}


def loss_fn(p, x, y):
    out = functional_call(m, p, (x.unsqueeze(0),))
    return nn.functional.cross_entropy(out, y.unsqueeze(0))


x, y = data(4, 3, seed=1), torch.tensor([0, 1, 1, 0])
ps = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
m.zero_grad()
nn.functional.cross_entropy(m(x), y, reduction="sum").backward()
report(shape=list(ps["weight"].shape), sumok=torch.allclose(ps["weight"].sum(0), m.weight.grad, atol=1e-6), b=ps["bias"])
