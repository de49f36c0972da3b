import torch
import torch.nn as nn

model = det(nn.Linear(3, 2), seed=142)
x = data(4, 3, seed=143)
with torch.inference_mode():
    y = model(x)
r = {"y_inf": y.is_inference(), "y_req": y.requires_grad, "y": y}
try:
    model(y).sum().backward()
    r["use"] = "ok"
except RuntimeError:
    r["use"] = "RuntimeError"
z = y.clone()
r["clone_inf"] = z.is_inference()
with torch.no_grad():
    n = model(x)
r["no_grad_inf"] = n.is_inference()
n2 = n * 2
r["n2_req"] = n2.requires_grad
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    w.mul_(3)
r["w"] = w
r["w_leaf"] = w.is_leaf
try:
    w.mul_(2)
    r["leaf_inplace"] = "ok"
except RuntimeError:
    r["leaf_inplace"] = "RuntimeError"
with torch.no_grad():
    t = torch.zeros(2, requires_grad=True)
r["t_req"] = t.requires_grad
report(**r)
