import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad
model = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def loss_fn(params, buffers, x, y):
    out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
    return nn.functional.cross_entropy(out, y.unsqueeze(0))
x, y = data(5, 3), ints(2, 5)
ps_grads = vmap(grad(loss_fn), in_dims=(None, None, 0, 0))(params, buffers, x, y)
norms = torch.stack([g.flatten(1).norm(dim=1) for g in ps_grads.values()]).norm(dim=0)
model.zero_grad()
nn.functional.cross_entropy(model(x), y, reduction="sum").backward()
same = torch.allclose(ps_grads["0.weight"].sum(0), model[0].weight.grad, atol=1e-5)
clipped = {k: (g * (1.0 / norms.clamp(min=1.0)).view(-1, *([1] * (g.dim() - 1)))).mean(0) for k, g in ps_grads.items()}
report(norms=norms, same=same, shape=list(ps_grads["2.weight"].shape), clipped=clipped["2.bias"])
