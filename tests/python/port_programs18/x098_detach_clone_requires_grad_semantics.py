import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
c = b.detach()
c[0] = 100
d = b.clone()
e = a.detach().clone().requires_grad_(True)
f = a.data
f[1] = 5.0
report(b=b, c=c, d_rg=d.requires_grad, d_fn=type(d.grad_fn).__name__, e_leaf=e.is_leaf, a=a, leafs=[a.is_leaf, b.is_leaf, c.is_leaf],
       rg=[c.requires_grad, f.requires_grad])
