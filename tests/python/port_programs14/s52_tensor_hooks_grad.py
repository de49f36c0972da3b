import torch
import torch.nn as nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
grads = []
h = x.register_hook(lambda g: grads.append(g.clone()))
y = x * x
y.register_hook(lambda g: g * 2)
y.retain_grad()
z = y.sum() * 3
z.backward()
h.remove()
lin = det(nn.Linear(3, 2))
bgrads = []
lin.register_full_backward_hook(lambda m, gi, go: bgrads.append((gi[0].shape if gi[0] is not None else None, go[0].shape)))
pre = []
lin.register_full_backward_pre_hook(lambda m, go: pre.append(go[0].sum().item()))
inp = data(4, 3).requires_grad_()
lin(inp).pow(2).sum().backward()
clipped = det(nn.Linear(3, 1), 5)
for p in clipped.parameters():
    p.register_hook(lambda g: torch.clamp(g, -0.1, 0.1))
clipped(data(5, 3)).sum().backward()
report(grads=grads, xg=x.grad, yg=y.grad, bgrads=bgrads, pre=pre, cg=clipped.weight.grad, cb=clipped.bias.grad)
