import torch
import torch.nn as nn

m = nn.Linear(2, 2)
order = []
m.register_forward_hook(lambda *a: order.append("first"))
m.register_forward_hook(lambda *a: order.append("prepended"), prepend=True)
m.register_forward_pre_hook(lambda *a: order.append("pre1"))
m.register_forward_pre_hook(lambda *a: order.append("pre0"), prepend=True)
m(torch.ones(1, 2))


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


b = Boom()
called = []
b.register_forward_hook(lambda *a: called.append("always"), always_call=True)
try:
    b(torch.ones(1))
except ValueError as e:
    called.append(str(e))
hs = m._forward_hooks
report(order=order, called=called, n=len(hs))
