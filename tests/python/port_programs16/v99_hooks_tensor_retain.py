import torch
import torch.nn as nn

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h = x * 2
h.retain_grad()
seen = []
handle = h.register_hook(lambda g: seen.append(g.clone()) or g * 0.5)
y = (h ** 2).sum()
y.backward(retain_graph=True)
first = x.grad.clone()
handle.remove()
x.grad.zero_()
y.backward()
lin = det(nn.Linear(3, 2))
acts = {}


def save_grad(name):
    def hook(module, grad_input, grad_output):
        acts[name] = (grad_output[0].clone(), grad_input[0] is None)
    return hook


hh = lin.register_full_backward_hook(save_grad("lin"))
inp = data(4, 3)
lin(inp).pow(2).sum().backward()
post = []
acc = lin.weight.register_post_accumulate_grad_hook(lambda p: post.append(p.grad.norm().item()))
lin(inp).sum().backward()
report(first=first, second=x.grad, seen=seen, hgrad=h.grad, go=acts["lin"][0], gi_none=acts["lin"][1], post=post, is_leaf=[x.is_leaf, h.is_leaf],
       retains=h.retains_grad)
