import torch
A = data(4, 4) + 4 * torch.eye(4)
b = data(4, 2, seed=3)
x = torch.linalg.solve(A, b)
inv = torch.linalg.inv(A)
d = torch.det(A)
s, ld = torch.linalg.slogdet(A)
M = data(3, 3, seed=5) * 0.3
E = torch.matrix_exp(M)
Ab = data(6, 3, seed=7); bb = data(6, 1, seed=8)
ls = torch.linalg.lstsq(Ab, bb).solution
n2 = torch.linalg.norm(A, ord=2)
fro = torch.linalg.matrix_norm(A)
vn = torch.linalg.vector_norm(A, ord=3, dim=1)
mp = torch.linalg.matrix_power(A, 3)
cross = torch.linalg.cross(data(2, 3), data(2, 3, seed=3))
batch = torch.linalg.solve(A.expand(2, 4, 4), b.expand(2, 4, 2))
L = torch.linalg.cholesky(A @ A.T)
ev = torch.linalg.eigvals(A)
eig_real = ev.real.sort().values
report(x=x, inv=inv[0], d=d, s=s, ld=ld, E=E, ls=ls, n2=n2, fro=fro, vn=vn, mp=mp[0], cross=cross, bsame=torch.allclose(batch[1], x, atol=1e-5),
       L=L.diagonal(), eig_real=eig_real, evdt=ev.dtype, trace=torch.trace(A), kron=torch.kron(torch.eye(2), torch.ones(1, 2)))
# TOL 1e-4
