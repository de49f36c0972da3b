import torch

with torch.inference_mode():
    a = torch.ones(3)
    b = torch.zeros(2).add_(1)
    with torch.no_grad():
        c = torch.ones(2)
r = {"a_inf": a.is_inference(), "b": b, "c_inf": c.is_inference()}
try:
    r["version"] = a._version
except RuntimeError:
    r["version"] = "RuntimeError"
n = torch.ones(2)
with torch.no_grad():
    n.add_(1)
r["n_version"] = n._version
with torch.inference_mode(mode=False):
    r["mode_false_enabled"] = torch.is_inference_mode_enabled()
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
r["y_req"] = y.requires_grad
r["grad_enabled_inside"] = None
with torch.inference_mode():
    r["grad_enabled_inside"] = torch.is_grad_enabled()
    with torch.enable_grad():
        r["enable_inside_inf"] = torch.is_grad_enabled()
        z = x * 2
r["z_req"] = z.requires_grad
r["z_inf"] = z.is_inference()
report(**r)
