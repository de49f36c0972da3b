import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)))
grad_stats = {}
def bwd_hook(name):
    def hook(module, grad_input, grad_output):
        grad_stats[name] = [None if g is None else round(g.norm().item(), 5) for g in grad_output] + [len(grad_input)]
    return hook
def pre(module, args):
    return (args[0] * 2,)
h1 = model[0].register_full_backward_hook(bwd_hook("fc1"))
h2 = model[2].register_full_backward_hook(bwd_hook("fc2"))
h3 = model[0].register_forward_pre_hook(pre)
def scale_grad(grad):
    return grad * 0.5
hp = model[2].weight.register_hook(scale_grad)
x = data(5, 4).requires_grad_()
out = model(x)
out.pow(2).sum().backward()
g_scaled = model[2].weight.grad.clone()
acts = {}
h4 = model[1].register_forward_hook(lambda m, i, o: acts.setdefault("relu", o.detach()))
def fwd_kw(module, args, kwargs, output):
    return output + 1
h5 = model[2].register_forward_hook(fwd_kw, with_kwargs=True)
out2 = model(x)
for h in (h1, h2, h3, h4, h5, hp):
    h.remove()
out3 = model(x)
report(stats=grad_stats, g=g_scaled[0], xg=x.grad[0], relu=acts["relu"][0], diff=(out2 - out).abs().max(), out3=out3[0], n_hooks=len(model[0]._forward_pre_hooks))
