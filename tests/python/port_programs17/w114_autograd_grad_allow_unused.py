import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
z = (x ** 2).sum()
gx, gy = torch.autograd.grad(z, [x, y], allow_unused=True)
gx2, gy2 = torch.autograd.grad((x ** 2).sum(), [x, y], allow_unused=True, materialize_grads=True)
v = torch.autograd.grad(x * 3, x, grad_outputs=torch.tensor([1.0, -1.0]))[0]
out = torch.stack([x.sum(), (x ** 3).sum()])
jac_rows = [torch.autograd.grad(out[i], x, retain_graph=True)[0] for i in range(2)]
w = torch.randn(2, requires_grad=True)
bw = torch.autograd.backward([x.sum() * 2, (x * 5).sum()], inputs=[x])
report(gx=gx, gy=gy, gy2=gy2, v=v, jac=torch.stack(jac_rows), xg=x.grad, wg=w.grad)
