import torch

A = torch.tensor([[4.0, 3.0, 0.0], [6.0, 3.0, 1.0], [0.0, 2.0, 5.0]])
P, L, U = torch.linalg.lu(A)
LU, piv = torch.linalg.lu_factor(A)
x = torch.linalg.lu_solve(LU, piv, torch.tensor([[1.0], [2.0], [3.0]]))
vals, vecs = torch.linalg.eig(torch.tensor([[2.0, -1.0], [1.0, 2.0]]))
order = vals.imag.argsort()
ev = torch.linalg.eigvals(A)
report(P=P, L=L, U=U, piv=piv, x=x.squeeze(1), vals_re=vals.real[order], vals_im=vals.imag[order],
       vec_abs=vecs.abs()[:, order], ev_sorted=ev.real.sort().values, ev_dtype=ev.dtype, recon=torch.allclose(P @ L @ U, A))
