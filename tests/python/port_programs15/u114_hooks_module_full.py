import torch
import torch.nn as nn

net = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
events = []


def bwd_pre(mod, grad_out):
    events.append(("bpre", type(mod).__name__))
    return (grad_out[0] * 2,)


net[2].register_full_backward_pre_hook(bwd_pre)
net[0].register_full_backward_hook(lambda m, gi, go: events.append(("bwd0", gi[0] is None, tuple(go[0].shape))))
acc = []
net[0].weight.register_post_accumulate_grad_hook(lambda p: acc.append(p.grad.abs().sum().item()))
x = data(2, 3).requires_grad_()
out = net(x)
out.sum().backward()
g_doubled = net[2].bias.grad.clone()
activations = {}
def getact(name):
    def hook(model, input, output):
        activations[name] = output.detach()
    return hook
h = net[1].register_forward_hook(getact("relu"))
net(x)
h.remove()
glob_calls = []
gh = nn.modules.module.register_module_forward_hook(lambda m, i, o: glob_calls.append(type(m).__name__))
net(x)
gh.remove()
net(x)
state_hooks = list(net[1]._forward_hooks.keys())
report(events=events, acc=len(acc), gb=g_doubled, xg=x.grad[0], act=activations["relu"][0], glob=glob_calls,
       remaining=len(state_hooks))
