import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)))
seen = []


def scale_grad_input(module, grad_input, grad_output):
    seen.append([g.shape if g is not None else None for g in grad_input])
    return tuple(g * 0.5 if g is not None else None for g in grad_input)


h = m[1].register_full_backward_hook(scale_grad_input)
x = data(5, 3).requires_grad_(True)
m(x).sum().backward()
g_hooked = m[0].weight.grad.clone()
h.remove()
m.zero_grad()
x.grad = None
m(x).sum().backward()
report(seen=[[list(s) for s in item] for item in seen], ratio=(g_hooked / m[0].weight.grad).mean(), g=g_hooked, xg=x.grad)
