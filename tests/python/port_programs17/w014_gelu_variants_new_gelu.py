import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def new_gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def quick_gelu(x):
    return x * torch.sigmoid(1.702 * x)


x = torch.linspace(-4, 4, 9, requires_grad=True)
a = F.gelu(x)
b = F.gelu(x, approximate="tanh")
c = new_gelu(x)
d = quick_gelu(x)
(a + b + c + d).sum().backward()
report(a=a, b=b, c=c, d=d, g=x.grad, eq=torch.allclose(b, c, atol=1e-6), r=repr(nn.GELU("tanh")), m=nn.Mish()(x))
