import torch
from torch.func import vmap

x = data(4, 3, seed=1)
y = data(3, seed=2)
report(dot=vmap(torch.dot, in_dims=(0, None))(x, y), outer=vmap(torch.outer)(x, x)[1], mm=vmap(lambda a: a @ a.T)(x.view(2, 2, 3))[0],
       nested=vmap(vmap(lambda a, b: a * b))(x, x)[2], od=vmap(lambda a: a.sum(), out_dims=0)(x), od1=vmap(lambda a: a * 2, in_dims=1, out_dims=1)(x).shape,
       sm=vmap(lambda r: torch.softmax(r, 0))(x)[0], kw=vmap(lambda a, s: a * s, in_dims=(0, None))(x, 3.0)[3], ch=vmap(lambda a: a.cumsum(0))(x)[1])
