import torch
import torch.nn as nn

m = det(nn.Linear(2, 2))


@torch.no_grad()
def predict(x):
    return m(x)


@torch.inference_mode()
def predict2(x):
    return m(x)


x = data(3, 2, seed=1)
a = predict(x)
b = predict2(x)
with torch.enable_grad():
    c = m(x)
with torch.set_grad_enabled(False):
    d = m(x)
torch.set_grad_enabled(True)
e = m(x)
report(a=a.requires_grad, b=b.requires_grad, c=c.requires_grad, d=d.requires_grad,
       e=e.requires_grad, same=torch.equal(a, b), grad_on=torch.is_grad_enabled(), inf_on=torch.is_inference_mode_enabled())
