import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
x = data(5, 3)
out = model(x).sum()
grads = torch.autograd.grad(out, model.parameters(), retain_graph=True)
norms = [g.norm().item() for g in grads]
out.backward()
total = torch.norm(torch.stack([torch.norm(p.grad.detach(), 2) for p in model.parameters()]), 2)
clipped = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type=2.0, foreach=True)
after = [p.grad.norm().item() for p in model.parameters()]
for p in model.parameters():
    p.grad = None
loss = model(x).pow(2).mean()
loss.backward(inputs=[model[2].weight])
only = [p.grad is not None for p in model.parameters()]
w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    w.mul_(2)
w2 = w.detach().requires_grad_(True)
y = (w2 * 3).sum(); y.backward()
leaf = [w.is_leaf, (w * 2).is_leaf, w2.grad, w.grad_fn is None, (w * 2).grad_fn is not None, w.detach().requires_grad]
v = torch.tensor([1.0, 2.0], requires_grad=True)
z = v * v
z.backward(gradient=torch.tensor([1.0, 0.5]))
jac = torch.autograd.grad(z, v, torch.eye(2), is_grads_batched=True, retain_graph=False)[0] if False else None
a = torch.tensor(2.0, requires_grad=True)
b = a ** 2
c = b.detach() * a
c.backward()
report(norms=norms, total=total, clipped=clipped, after=after, only=only, leaf=leaf, vg=v.grad, ag=a.grad)
