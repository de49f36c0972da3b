import torch
import torch.nn as nn
from torch.func import vmap, grad, functional_call, jacrev, jacfwd, hessian
model = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), scale=0.5)
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
x = data(5, 3); y = data(5, 1, seed=3)
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0); targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return torch.nn.functional.mse_loss(predictions, targets)
ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
per = ft_compute_sample_grad(params, buffers, x, y)
manual = []
for i in range(5):
    model.zero_grad(); torch.nn.functional.mse_loss(model(x[i:i+1]), y[i:i+1]).backward(); manual.append(model[0].weight.grad.clone())
agree = torch.allclose(per["0.weight"], torch.stack(manual), atol=1e-6)
f = lambda v: (v.sin() * v.pow(2)).sum()
h = hessian(f)(data(3, seed=4))
jr = jacrev(lambda v: v.exp() * v.sum())(data(3, seed=5))
jf = jacfwd(lambda v: v.exp() * v.sum())(data(3, seed=5))
batched_dot = vmap(torch.dot)
bd = batched_dot(data(4, 3), data(4, 3, seed=6))
mm = vmap(vmap(lambda a, b: a * b + 1), in_dims=(0, None))(data(2, 3), data(3, seed=7))
gl, val = grad(lambda w: ((x @ w - y.squeeze()) ** 2).mean(), has_aux=False)(torch.ones(3)), None
out_dims = vmap(lambda t: t.sum(0), in_dims=1, out_dims=0)(data(3, 4, 2))
report(per_w=per["0.weight"].sum(0), per_b=per["2.bias"], agree=agree, h=h, jr=jr, jf=jf, bd=bd, mm=mm, gl=gl, out_dims=out_dims)
