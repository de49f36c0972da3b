import torch

A = torch.tensor([[0.0, 1.0], [-2.0, -3.0]], requires_grad=True)
E = torch.linalg.matrix_exp(A)
E.sum().backward()
gE = A.grad.clone()
A.grad = None
P = torch.linalg.matrix_power(A, 3)
P.sum().backward()
gP = A.grad.clone()
Pn = torch.linalg.matrix_power(A.detach() + 3 * torch.eye(2), -2)
t = torch.linspace(0, 1, 3)
traj = torch.stack([torch.linalg.matrix_exp(A.detach() * s) @ torch.tensor([1.0, 0.0]) for s in t])
report(E=E, gE=gE, P=P, gP=gP, Pn=Pn, traj=traj, batched=torch.linalg.matrix_exp(torch.stack([torch.zeros(2, 2), torch.eye(2)]))[1])
