import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
unused = torch.ones(1, requires_grad=True)
y = (x ** 3 * w).sum()
gx, gw, gu = torch.autograd.grad(y, [x, w, unused], create_graph=True, allow_unused=True)
ggx = torch.autograd.grad(gx.sum(), x, retain_graph=True)[0]
gmat = torch.autograd.grad(gx, x, grad_outputs=torch.tensor([1.0, 0.0, 2.0]))[0]
z = x * w
v = torch.autograd.grad(z, w, grad_outputs=torch.ones(3), retain_graph=True)[0]
mat = torch.autograd.grad(z, x, grad_outputs=torch.eye(3), is_grads_batched=True)[0]
zmat = torch.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True, materialize_grads=True)
try:
    torch.autograd.grad((x * 2).sum(), [unused])
    err = None
except RuntimeError:
    err = "RuntimeError"
q = x.pow(2).sum()
q.backward(inputs=[x])
report(gx=gx.detach(), gw=gw.detach(), gu=gu, ggx=ggx, gmat=gmat, v=v, mat=mat, zmat1=zmat[1], err=err, xg=x.grad, wg=w.grad)
