import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
Q.retain_grad()
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
check = [(9 * a ** 2 == a.grad).tolist(), (-2 * b == b.grad).tolist()]
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * x
h.retain_grad()
z = h.sum() * 3
z.backward()
report(ag=a.grad, bg=b.grad, Qg=Q.grad, check=check, hg=h.grad, xg=x.grad, retains=[h.retains_grad, x.retains_grad],
       leaf=[a.is_leaf, Q.is_leaf, h.is_leaf])
