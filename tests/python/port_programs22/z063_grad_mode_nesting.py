import torch

x = torch.ones(2, requires_grad=True)
r = {}
with torch.no_grad():
    a = x * 2
    with torch.enable_grad():
        b = x * 2
    r["inner_enabled"] = torch.is_grad_enabled()
r["a"] = a.requires_grad
r["b"] = b.requires_grad
with torch.inference_mode():
    c = x * 3
    r["inf_enabled"] = torch.is_grad_enabled()
    r["inf_mode"] = torch.is_inference_mode_enabled()
    with torch.inference_mode(False):
        d = x * 3
        r["d_req"] = d.requires_grad
r["c_req"] = c.requires_grad
r["c_inf"] = c.is_inference()
r["x_inf"] = x.is_inference()
try:
    c.add_(1)
    r["c_inplace"] = "ok"
except RuntimeError:
    r["c_inplace"] = "RuntimeError"
try:
    (c * x).sum().backward()
    r["mix"] = x.grad.tolist()
except RuntimeError:
    r["mix"] = "RuntimeError"

@torch.no_grad()
def f(t):
    return t * 2

@torch.inference_mode()
def g(t):
    return t * 2

r["f"] = f(x).requires_grad
r["g"] = g(x).requires_grad
with torch.set_grad_enabled(False):
    r["sge"] = (x * 2).requires_grad
torch.set_grad_enabled(True)
r["after"] = torch.is_grad_enabled()
with torch.no_grad():
    y = x.clone()
r["y_leaf"] = y.is_leaf
report(**r)
