import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x, scale=1.0):
        return self.lin(x) * scale


b = det(Block())
log = []


def pre_kw(module, args, kwargs):
    log.append(("pre", sorted(kwargs)))
    return args, {**kwargs, "scale": 2.0}


def post_kw(module, args, kwargs, output):
    log.append(("post", kwargs.get("scale")))
    return output + 1


h1 = b.register_forward_pre_hook(pre_kw, with_kwargs=True)
h2 = b.register_forward_hook(post_kw, with_kwargs=True)
x = data(2, 3)
y1 = b(x, scale=0.5)
h1.remove()
h2.remove()
y2 = b(x)
h3 = b.register_forward_pre_hook(lambda m, inp: (inp[0] * 0,), prepend=True)
y3 = b(x)
h3.remove()
h4 = b.register_forward_hook(lambda m, i, o: None, always_call=True)
y4 = b(x)
grads = []
h5 = b.lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 10,))
b(x).sum().backward()
report(log=log, y1=y1.detach(), y2=y2.detach(), y3=y3.detach(), y4_eq=torch.equal(y2, y4), g=b.lin.bias.grad)
