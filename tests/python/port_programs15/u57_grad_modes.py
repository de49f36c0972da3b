import torch
# Written first reporting iv.is_inference() too: meshflow's inference_mode is no_grad, its
# tensors ordinary ones (docs/porting.md), so that is left out.

x = torch.ones(2, requires_grad=True)
r = {}
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 3
r["y"] = y.requires_grad
r["z"] = z.requires_grad
with torch.set_grad_enabled(False):
    r["inside"] = torch.is_grad_enabled()
r["after"] = torch.is_grad_enabled()
torch.set_grad_enabled(False)
w = x * 4
torch.set_grad_enabled(True)
r["w"] = w.requires_grad
with torch.inference_mode():
    iv = x * 5
r["inf"] = [iv.requires_grad, torch.is_inference_mode_enabled()]


@torch.no_grad()
def decorated(t):
    return t * 2


r["dec"] = decorated(x).requires_grad


@torch.enable_grad()
def force(t):
    return t * 2


with torch.no_grad():
    r["force"] = force(x).requires_grad
d = x.detach()
d[0] = 5
r["shared"] = x[0].item()
r["leaf"] = [x.is_leaf, (x * 2).is_leaf, d.is_leaf, d.requires_grad]
p = torch.zeros(2).requires_grad_()
q = p.sum() * 2
q.backward(retain_graph=True)
q.backward()
r["accum"] = p.grad
r["retain"] = (lambda a: (a.retain_grad(), (a * a).sum().backward(), a.grad)[2])(p * 1)
r["grad_fn_none"] = x.grad_fn is None
r["next"] = [type(f[0]).__name__ for f in ((x * 2) + 1).grad_fn.next_functions if f[0] is not None]
r["set_grad_fn"] = torch.set_grad_enabled(True).__class__.__name__
report(**r)
