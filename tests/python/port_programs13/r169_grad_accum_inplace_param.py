import torch
import torch.nn as nn
lin = det(nn.Linear(3, 2))
x = data(4, 3)
for _ in range(3):
    lin(x).sum().backward()
acc = lin.weight.grad.clone()
lin.weight.grad.zero_()
lin(x).pow(2).mean().backward()
with torch.no_grad():
    lin.weight -= 0.1 * lin.weight.grad
    lin.bias.add_(lin.bias.grad, alpha=-0.1)
    lin.weight.clamp_(-0.3, 0.3)
lin.weight.grad = None
g_none = lin.weight.grad is None
y = lin(x)
y.sum().backward()
report(acc=acc, w=lin.weight, b=lin.bias, g_none=g_none, g=lin.weight.grad, is_leaf=lin.weight.is_leaf)
