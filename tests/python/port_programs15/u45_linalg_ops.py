import torch

A = data(4, 4).double()
A = A @ A.T + 4 * torch.eye(4, dtype=torch.float64)
b = data(4, 2, seed=2).double()
r = {}
x = torch.linalg.solve(A, b)
r["solve_res"] = (A @ x - b).abs().max().item() < 1e-10
L = torch.linalg.cholesky(A)
r["chol"] = L.diagonal()
r["chol_solve"] = torch.allclose(torch.cholesky_solve(b, L), x)
evals, evecs = torch.linalg.eigh(A)
r["eigh"] = evals
r["eig_recon"] = torch.allclose(evecs @ torch.diag(evals) @ evecs.T, A)
U, S, Vh = torch.linalg.svd(data(5, 3, seed=3), full_matrices=False)
r["svals"] = S
r["svdvals"] = torch.linalg.svdvals(data(5, 3, seed=3))
r["qr_r_absdiag"] = torch.linalg.qr(data(4, 3, seed=4)).R.diagonal().abs()
r["det"] = torch.linalg.det(A)
sign, logabs = torch.linalg.slogdet(A)
r["slogdet"] = [sign.item(), logabs.item()]
r["inv"] = torch.allclose(torch.linalg.inv(A) @ A, torch.eye(4, dtype=torch.float64))
r["pinv"] = torch.linalg.pinv(torch.tensor([[1., 2.], [2., 4.], [0., 0.]]))
r["lstsq"] = torch.linalg.lstsq(torch.tensor([[1., 1.], [1., 2.], [1., 3.]]), torch.tensor([[1.], [2.], [2.]])).solution
r["norms"] = [torch.linalg.norm(A).item(), torch.linalg.matrix_norm(A, "nuc").item(),
              torch.linalg.vector_norm(b, ord=float("inf")).item(), torch.linalg.norm(b[:, 0], 1).item()]
r["cond"] = torch.linalg.cond(A)
r["rank"] = torch.linalg.matrix_rank(torch.tensor([[1., 2.], [2., 4.]]))
r["mpow"] = torch.linalg.matrix_power(torch.tensor([[1., 1.], [0., 1.]]), 5)
r["mexp"] = torch.linalg.matrix_exp(torch.tensor([[0., 1.], [-1., 0.]]))
r["tri"] = torch.linalg.solve_triangular(L, b, upper=False)[0]
LU, piv = torch.linalg.lu_factor(A)
r["lu_solve"] = torch.allclose(torch.linalg.lu_solve(LU, piv, b), x)
r["batched"] = torch.linalg.det(torch.stack([torch.eye(3) * 2, torch.eye(3) * 3]))
r["eigvals_real"] = torch.linalg.eigvals(torch.tensor([[2., 0.], [0., 3.]])).real
report(**r)
