import torch

errs = []
a = torch.ones(3, requires_grad=True)
try:
    a.add_(1)
except RuntimeError as e:
    errs.append("leaf" if "leaf Variable that requires grad" in str(e) else str(e)[:60])
b = torch.ones(3, requires_grad=True)
c = b.sigmoid()
c.mul_(2)
try:
    c.sum().backward()
except RuntimeError as e:
    errs.append("modified" if "modified by an inplace operation" in str(e) else str(e)[:60])
d = torch.ones(3, requires_grad=True)
e2 = d * 2
e2.add_(1)
e2.sum().backward()
with torch.no_grad():
    d.add_(1)
with torch.inference_mode():
    inf = torch.ones(2)
try:
    (inf * torch.ones(2, requires_grad=True)).sum().backward()
    errs.append("inf-bwd-ok")
except RuntimeError as e:
    errs.append("inf-bwd-err")
report(errs=errs, dg=d.grad, d=d)
