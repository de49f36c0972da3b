import torch
# The program reported b.is_inference() and c.is_inference() too: meshflow's inference_mode is
# no_grad, its tensors ordinary ones (docs/porting.md, "What differs").
import torch.nn as nn

m = det(nn.Linear(3, 2))
x = data(4, 3, seed=1)
with torch.no_grad():
    a = m(x)
with torch.inference_mode():
    b = m(x)
c = m(x)


@torch.no_grad()
def evaluate(model, inp):
    return model(inp).sum()


@torch.inference_mode()
def predict(model, inp):
    return model(inp).argmax(1)


d = evaluate(m, x)
with torch.enable_grad():
    e = m(x)
torch.set_grad_enabled(False)
f = m(x)
torch.set_grad_enabled(True)
with torch.no_grad():
    with torch.enable_grad():
        g = m(x)
prev = torch.is_grad_enabled()
with torch.set_grad_enabled(False):
    h = m(x)
report(a=a.requires_grad, b=b.requires_grad, c=c.requires_grad, d=d.requires_grad, e=e.requires_grad,
       f=f.requires_grad, g=g.requires_grad, h=h.requires_grad, prev=prev, pred=predict(m, x), grad_fn=c.grad_fn is not None,
       a_fn=a.grad_fn is None, val=a)
