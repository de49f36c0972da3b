import copy
import torch
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap

models = [det(nn.Linear(3, 2), seed=i) for i in range(4)]
params, buffers = stack_module_state(models)
base = copy.deepcopy(models[0]).to("meta")


def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))


x = data(5, 3)
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
ref = torch.stack([m(x) for m in models])
report(shape=out.shape, close=torch.allclose(out, ref, atol=1e-6), wshape=params["weight"].shape, out=out.sum(dim=(1, 2)))
