import torch
import torch.nn as nn

net = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)))
log = []


def fwd_pre(mod, args):
    log.append(("pre", type(mod).__name__, tuple(args[0].shape)))
    return (args[0] * 2,)


def fwd(mod, args, out):
    log.append(("fwd", type(mod).__name__))
    return out + 1


def bwd(mod, grad_in, grad_out):
    log.append(("bwd", type(mod).__name__, len(grad_in), tuple(grad_out[0].shape)))


def fwd_kw(mod, args, kwargs, out):
    log.append(("kw", sorted(kwargs)))


h1 = net[0].register_forward_pre_hook(fwd_pre)
h2 = net[2].register_forward_hook(fwd)
h3 = net[2].register_full_backward_hook(bwd)
h4 = net.register_forward_hook(fwd_kw, with_kwargs=True)
grads = {}
x = data(5, 3).requires_grad_()
x.register_hook(lambda g: grads.__setitem__("x", g.clone()))
y = net(x)
y.retain_grad()
y.sum().backward()
out1 = y.detach().clone()
for h in (h1, h2, h3, h4):
    h.remove()
y2 = net(x)
ph = net[0].weight.register_hook(lambda g: g * 0)
net.zero_grad()
net(x).sum().backward()
report(log=log, out1=out1[0], y2=y2[0], xg=grads["x"][0], ygrad=y.grad[0], zeroed=net[0].weight.grad.abs().sum().item(),
       b=net[0].bias.grad)
