import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
log = []
acts = {}


def fwd_hook(name):
    def hook(mod, inp, out):
        acts[name] = out.detach()
        log.append(("fwd", name, type(inp).__name__, len(inp)))
    return hook


def pre(mod, args):
    log.append(("pre", type(mod).__name__))
    return (args[0] * 2,)


def bwd(mod, grad_in, grad_out):
    log.append(("bwd", type(mod).__name__, len(grad_in), len(grad_out)))
    return None


h1 = m[0].register_forward_hook(fwd_hook("l0"))
h2 = m[2].register_forward_hook(fwd_hook("l2"))
h3 = m[0].register_forward_pre_hook(pre)
h4 = m[2].register_full_backward_hook(bwd)
x = data(2, 3)
y = m(x)
y.sum().backward()
h1.remove(); h2.remove(); h3.remove(); h4.remove()
y2 = m(x)


def modify(mod, inp, out):
    return out + 100


h = m[2].register_forward_hook(modify)
y3 = m(x)
h.remove()


def kw_hook(mod, args, kwargs, out):
    log.append(("kw", sorted(kwargs)))


hk = m.register_forward_hook(kw_hook, with_kwargs=True)
m(x)
hk.remove()
gh = []
t = x.clone().requires_grad_(True)
t.register_hook(lambda g: gh.append(g.clone()) or g * 3)
(t * 2).sum().backward()
report(log=[list(l) for l in log], l0=acts["l0"], y=y, y2=y2, y3=y3, gh=gh[0], tg=t.grad)
