import torch

A = (torch.eye(3) * 3 + 0.5 * torch.tensor([[0.0, 1.0, 2.0], [1.0, 0.0, -1.0], [0.5, 0.3, 0.0]])).requires_grad_()
d = torch.linalg.det(A)
d.backward()
g_det = A.grad.clone()
A.grad = None
torch.linalg.inv(A).sum().backward()
g_inv = A.grad.clone()
A.grad = None
S = A @ A.T
w, V = torch.linalg.eigh(S)
(w * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
g_eigh = A.grad.clone()
A.grad = None
U, s, Vh = torch.linalg.svd(A, full_matrices=False)
s.sum().backward()
g_svd = A.grad.clone()
A.grad = None
torch.linalg.solve(A, torch.ones(3)).pow(2).sum().backward()
g_solve = A.grad.clone()
A.grad = None
torch.logdet(A).backward()
report(d=d.item(), g_det=g_det, g_inv=g_inv, w=w, g_eigh=g_eigh, s=s, g_svd=g_svd, g_solve=g_solve, g_logdet=A.grad)
