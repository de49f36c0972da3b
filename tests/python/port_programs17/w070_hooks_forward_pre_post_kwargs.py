import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
log = []


def pre(mod, args):
    log.append(("pre", type(mod).__name__, list(args[0].shape)))
    return (args[0] * 2,)


def post(mod, args, out):
    log.append(("post", type(mod).__name__))
    return out + 1


def pre_kw(mod, args, kwargs):
    log.append(("prekw", sorted(kwargs)))
    return args, kwargs


h1 = m[0].register_forward_pre_hook(pre)
h2 = m[2].register_forward_hook(post)
h3 = m.register_forward_pre_hook(pre_kw, with_kwargs=True)
h4 = m[1].register_forward_hook(lambda mod, a, o: log.append(("always", float(o.sum()))), always_call=True)
x = data(2, 3, seed=1)
y1 = m(x)
h1.remove()
h2.remove()
y2 = m(x)
h3.remove()
h4.remove()
y3 = m(x)
report(y1=y1, y2=y2, eq=torch.equal(y2, y3), log=log[:6], n=len(log))
