import torch
from torch.func import grad, grad_and_value, jvp, vjp, jacfwd, vmap


def loss(w, x, y):
    pred = x @ w
    l = ((pred - y) ** 2).mean()
    return l, pred


x, y = data(4, 3), data(4, seed=2)
w = torch.zeros(3)
g, aux = grad(loss, has_aux=True)(w, x, y)
(g2, (v2, aux2)) = grad_and_value(loss, has_aux=True)(w, x, y)
gx = grad(lambda w, x: (x @ w).sum(), argnums=1)(w + 1, x)
out, tangent = jvp(torch.sin, (x[0],), (torch.ones(3),))
o, fn = vjp(lambda t: t ** 2, x[1])
(vj,) = fn(torch.ones(3))
jf = jacfwd(lambda t: t.exp().sum(0))(x[:2])
ps = vmap(grad(lambda w, xi, yi: ((xi @ w - yi) ** 2)), in_dims=(None, 0, 0))(w, x, y)
report(g=g, aux=aux, g2=g2, v2=v2, gx=gx, tangent=tangent, vj=vj, jf_shape=jf.shape, jf=jf.sum(), ps=ps)
