import torch

A = data(4, 4) + 4 * torch.eye(4)
b = data(4, 2, seed=3)
x = torch.linalg.solve(A, b)
res = (A @ x - b).abs().max()
X = torch.cat([torch.ones(10, 1), data(10, 2, seed=5)], 1)
y = X @ torch.tensor([[1.0], [2.0], [-3.0]]) + 0.01 * data(10, 1, seed=6)
sol = torch.linalg.lstsq(X, y)
normal_eq = torch.linalg.solve(X.T @ X, X.T @ y)
pinv = torch.linalg.pinv(X) @ y
batched = torch.linalg.solve(torch.stack([A, A.T]), b[:, 0].expand(2, 4))
left = torch.linalg.solve(A, b.T, left=False) if False else torch.linalg.solve(A.T, b).T
Ad = A.double()
report(x=x, small=bool(res < 1e-4), coef=sol.solution.squeeze(), normal=normal_eq.squeeze(), pinv=pinv.squeeze(), batched=batched,
       det=torch.linalg.det(A).item(), slogdet=list(torch.linalg.slogdet(A)), inv=torch.linalg.inv(Ad)[0], left=left,
       lu_solve=torch.linalg.lu_solve(*torch.linalg.lu_factor(A), b))
