import torch
from torch.func import vmap, grad, jacrev, functional_call

r = {}
x = data(5, 3)
w = data(3, seed=2)
r["vmap_dot"] = vmap(torch.dot, in_dims=(0, None))(x, w)


def loss_fn(w, xi, yi):
    return (xi @ w - yi) ** 2


y = data(5, seed=3)
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(w, x, y)
r["per_sample"] = per_sample
r["per_sample_sum_ok"] = torch.allclose(per_sample.sum(0), torch.autograd.functional.jacobian(
    lambda w: ((x @ w - y) ** 2).sum(), w), atol=1e-5)
r["jacrev"] = jacrev(torch.sin)(torch.tensor([0.0, 1.0]))
model = torch.nn.Linear(3, 1)
params = {k: torch.ones_like(v) for k, v in model.named_parameters()}
r["fcall"] = functional_call(model, params, (x,)).squeeze()
r["grad_argnums"] = grad(lambda a, b: (a * b).sum(), argnums=1)(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
r["vmap_2d"] = vmap(vmap(lambda a, b: a * b))(torch.ones(2, 3), torch.arange(6.).view(2, 3))
r["vmap_out_dims"] = vmap(lambda t: t * 2, out_dims=1)(torch.ones(4, 3)).shape
report(**r)
