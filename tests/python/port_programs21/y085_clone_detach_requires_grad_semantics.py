import torch

a = data(3, seed=1).requires_grad_()
b = a.clone()
c = a.detach()
d = a.detach().clone()
e = a.data
b.sum().backward()
c[0] = 10.0
x = torch.ones(2, requires_grad=True)
y = x * 2
err = None
z = y.detach()
z.add_(1)
report(ag=a.grad, b_fn=type(b.grad_fn).__name__, c_req=c.requires_grad, d_req=d.requires_grad, a0=a[0].item(),
       e_req=e.requires_grad, y=y.detach(), z=z,
       leaf=[a.is_leaf, b.is_leaf, c.is_leaf], clone_req=torch.clone(a).requires_grad)
