import torch

A = torch.tensor([[2.0 + 1.0j, 1.0 - 1.0j], [0.5j, 3.0 + 0.0j]])
b = torch.tensor([1.0 + 0.0j, 2.0 - 1.0j])
# solve, inv, det and eigvalsh of complex matrices: meshflow's linalg refuses them (docs/porting.md)
H = A @ A.conj().T
n = torch.linalg.norm(A)
report(n=n.item(), herm=torch.allclose(H, H.mH), H=torch.view_as_real(H[0]),
       matmul=torch.view_as_real(A @ b), vdot=torch.view_as_real(torch.vdot(b, b)))
