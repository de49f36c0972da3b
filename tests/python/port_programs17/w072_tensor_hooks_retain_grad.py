import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
calls = []
h = y.register_hook(lambda g: calls.append(g.clone()) or g * 10)
z = (y ** 2).sum()
z.backward(retain_graph=True)
g1 = x.grad.clone()
h.remove()
x.grad.zero_()
z.backward()
w = torch.ones(2, requires_grad=True)
acc = []
w.register_post_accumulate_grad_hook(lambda p: acc.append(p.grad.sum().item()))
(w * 3).sum().backward()
(w * 4).sum().backward()
report(g1=g1, g2=x.grad, yg=y.grad, calls=calls, acc=acc, leaf=[x.is_leaf, y.is_leaf], rg=y.retains_grad)
