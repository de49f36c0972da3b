import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3)))
log = []
def pre_hook(module, args):
    log.append(("pre", type(module).__name__, tuple(args[0].shape)))
    return (args[0] * 2,)
def fwd_hook(module, args, output):
    log.append(("fwd", type(module).__name__))
    return output + 1
def bwd_hook(module, grad_input, grad_output):
    log.append(("bwd", type(module).__name__, len(grad_input), grad_output[0].shape))
    return (grad_input[0] * 0.5,) if grad_input[0] is not None else None
def bwd_pre(module, grad_output):
    log.append(("bwdpre", type(module).__name__))
h1 = model[0].register_forward_pre_hook(pre_hook)
h2 = model[2].register_forward_hook(fwd_hook)
h3 = model[2].register_full_backward_hook(bwd_hook)
h4 = model[0].register_full_backward_pre_hook(bwd_pre)
acts = {}
def save(name):
    def hook(m, i, o):
        acts[name] = o.detach()
    return hook
h5 = model[1].register_forward_hook(save("relu"))
x = data(2, 4).requires_grad_()
out = model(x)
inter = out * 3
inter.retain_grad()
grads = []
th = inter.register_hook(lambda g: grads.append(g.clone()) or g * 2)
inter.sum().backward()
xg = x.grad.clone(); w0g = model[0].weight.grad.clone()
for h in (h1, h2, h3, h4, h5): h.remove()
th.remove()
x.grad = None; model.zero_grad()
out2 = model(x); out2.sum().backward()
def kw_hook(m, args, kwargs, output):
    return output * kwargs.get("scale", 1)
class K(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale
k = K(); k.register_forward_hook(kw_hook, with_kwargs=True)
kk = k(torch.ones(2), scale=3.0)
p = nn.Parameter(torch.ones(3))
p.register_hook(lambda g: g.clamp(max=0.5))
(p * torch.tensor([0.1, 1.0, 2.0])).sum().backward()
report(log=[list(map(str, l)) for l in log], out=out, xg=xg, w0g=w0g, inter_grad=inter.grad, grads=grads, relu=acts["relu"], out2=out2, xg2=x.grad, kk=kk, pg=p.grad)
