import torch
import torch.nn as nn

m = det(nn.Linear(3, 2))
for p in m.parameters():
    p.register_hook(lambda g: torch.clamp(g, -0.1, 0.1))
x = data(4, 3, seed=2)
m(x).pow(2).sum().backward()
seen = []
h = torch.tensor([1.0, 2.0], requires_grad=True)
y = h * 3
y.register_hook(lambda g: seen.append(g.clone()))
y.retain_grad()
z = (y ** 2).sum()
z.backward()
a = torch.ones(2, requires_grad=True)
handle = a.register_hook(lambda g: g * 10)
(a * 2).sum().backward()
handle.remove()
(a * 2).sum().backward()
report(wg=m.weight.grad, bg=m.bias.grad, seen=seen, ygrad=y.grad, hgrad=h.grad, agrad=a.grad)
