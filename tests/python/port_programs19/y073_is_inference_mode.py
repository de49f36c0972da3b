import torch
with torch.inference_mode():
    a = torch.ones(3) * 2
    inside = torch.is_inference_mode_enabled()
b = torch.ones(3)
with torch.inference_mode(False):
    c = torch.ones(1)
err = "none"
try:
    w = torch.ones(3, requires_grad=True)
    (a * w).sum().backward()
except RuntimeError as e:
    err = "inference" in str(e).lower()
with torch.no_grad():
    d = torch.ones(2) + 1
report(a_inf=a.is_inference(), b_inf=b.is_inference(), c_inf=c.is_inference(), d_inf=d.is_inference(), inside=inside, outside=torch.is_inference_mode_enabled(),
       err=err, a=a, rg=a.requires_grad)
