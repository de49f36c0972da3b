import torch

x = data(4, seed=1).requires_grad_()
seen = []
h1 = x.register_hook(lambda g: seen.append(g.clone()))
y = x * 2
y.retain_grad()
h2 = y.register_hook(lambda g: g * 10)
z = (y ** 2).sum()
z.backward(retain_graph=True)
first = x.grad.clone()
h2.remove()
x.grad = None
z.backward()
w = data(3, seed=2).requires_grad_()
w.register_hook(lambda g: g.clamp(-0.1, 0.1))
(w * 5).sum().backward()
m = data(3, seed=3).requires_grad_()
mm = m.exp()
mm.register_hook(lambda g: None)
mm.sum().backward()
report(first=first, second=x.grad, ygrad=y.grad, seen=seen, wg=w.grad, mg=m.grad, is_leaf=[x.is_leaf, y.is_leaf],
       retains=y.retains_grad)
