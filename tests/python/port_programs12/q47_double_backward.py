import torch
import torch.nn as nn
D = det(nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)), scale=0.5)
real = data(6, 3); fake = data(6, 3, seed=4)
alpha = torch.from_numpy(__import__("numpy").linspace(0, 1, 6).astype("float32")).view(-1, 1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
gp.backward()
g0 = D[0].weight.grad.clone()
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
h = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(2)])
v = torch.tensor([1.0, -1.0])
hvp = torch.autograd.grad(g, x, grad_outputs=v)[0]
w = torch.tensor(2.0, requires_grad=True); u = torch.tensor(3.0, requires_grad=True)
gw, gu = torch.autograd.grad(w * w, [w, u], allow_unused=True)
gz = torch.autograd.grad(w * w, [w, u], allow_unused=True, materialize_grads=True)[1]
jac = torch.autograd.functional.jacobian(lambda a: a.sin() * a, torch.tensor([0.5, 1.0]))
hes = torch.autograd.functional.hessian(lambda a: (a ** 2).prod(), torch.tensor([1.0, 2.0]))
_, vjp = torch.autograd.functional.vjp(lambda a: a ** 2, torch.tensor([1.0, 3.0]), torch.tensor([1.0, 1.0]))
_, jvp = torch.autograd.functional.jvp(lambda a: a ** 2, torch.tensor([1.0, 3.0]), torch.tensor([1.0, 0.0]))
t = torch.tensor([0.3], requires_grad=True)
f = torch.sin(t)
d1, = torch.autograd.grad(f, t, create_graph=True)
d2, = torch.autograd.grad(d1, t, create_graph=True)
d3, = torch.autograd.grad(d2, t)
z = torch.ones(2, requires_grad=True)
l = (z * 2).sum(); l.backward(retain_graph=True); l.backward()
with torch.autograd.set_detect_anomaly(True):
    q = torch.ones(1, requires_grad=True); (q * 3).backward()
report(gp=gp, g0=g0, h=h, hvp=hvp, gw=gw, gu=gu, gz=gz, jac=jac, hes=hes, vjp=vjp, jvp=jvp, d=[d1, d2, d3], zg=z.grad, qg=q.grad)
