import torch
from torch.func import grad, grad_and_value, vmap, jacrev

def loss_with_aux(w, x, y):
    pred = x @ w
    loss = ((pred - y) ** 2).mean()
    return loss, pred


w = data(3, seed=1)
x = data(5, 3, seed=2)
y = data(5, seed=3)
g, aux = grad(loss_with_aux, has_aux=True)(w, x, y)
g2, (val, aux2) = grad_and_value(loss_with_aux, has_aux=True)(w, x, y)
per_example = vmap(grad(lambda w, xi, yi: ((xi @ w - yi) ** 2)), in_dims=(None, 0, 0))(w, x, y)
chunked = vmap(lambda xi: xi.sin() * 2, chunk_size=2)(x)
out_dims = vmap(lambda xi: (xi.sum(), xi * 2), out_dims=(0, 1))(x)
jr = jacrev(lambda w: x @ w)(w)
report(g=g, aux=aux, g2=torch.allclose(g, g2), val=val, aux2=torch.equal(aux, aux2), pe=per_example.mean(0), same=torch.allclose(per_example.mean(0), g, atol=1e-6),
       chunked=chunked[0], od=[o.shape for o in out_dims], jr=torch.allclose(jr, x))
