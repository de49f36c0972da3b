import torch

x = torch.ones(2, requires_grad=True)
out = {}
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 3
    out["nested"] = [y.requires_grad, z.requires_grad]


@torch.no_grad()
def f(t):
    return t * 2


@torch.enable_grad()
def g(t):
    return t * 2


with torch.no_grad():
    out["deco"] = [f(x).requires_grad, g(x).requires_grad]
with torch.set_grad_enabled(False):
    out["sge"] = [(x * 2).requires_grad, torch.is_grad_enabled()]
torch.set_grad_enabled(False)
out["sge_fn"] = (x + 1).requires_grad
torch.set_grad_enabled(True)
with torch.inference_mode():
    i = x * 2
    out["inf"] = [i.requires_grad, torch.is_inference_mode_enabled()]
    with torch.inference_mode(False):
        out["inf_off"] = (x * 2).requires_grad
out["after"] = [x.is_inference(), torch.is_inference_mode_enabled(), i.requires_grad]
w = x.detach()
w.requires_grad_()
out["detach_leaf"] = [w.is_leaf, w.grad_fn is None, (x * 1).is_leaf]
report(**out)
