import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)), seed=1)
activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()
    return hook


h1 = model[0].register_forward_hook(get_activation('fc1'))
log = []


def pre_hook(module, args):
    log.append(('pre', type(module).__name__, args[0].shape))
    return (args[0] * 2,)


h2 = model[2].register_forward_pre_hook(pre_hook)
grads = {}


def bhook(module, grad_input, grad_output):
    grads['in'] = grad_input[0].detach().clone()
    grads['out'] = grad_output[0].detach().clone()


h3 = model[2].register_full_backward_hook(bhook)
x = data(3, 4, seed=2, ).requires_grad_()
out = model(x)
out.sum().backward()
fc1 = activation['fc1']
h1.remove(); h2.remove(); h3.remove()
out2 = model(x)


def kw_hook(module, args, kwargs, output):
    log.append(('kw', sorted(kwargs.keys())))
    return output + 1


h4 = model.register_forward_hook(kw_hook, with_kwargs=True)
out3 = model(x)
h4.remove()
tensor_grads = []
y = x * 3
y.register_hook(lambda g: tensor_grads.append(g.clone()))
y.register_hook(lambda g: g * 0.5)
y.sum().backward()
report(fc1=fc1, log=log, gin=grads['in'], gout=grads['out'], out=out, out2=out2, out3=out3, tg=tensor_grads, xg=x.grad)
