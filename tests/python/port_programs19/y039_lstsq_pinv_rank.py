import torch
A = torch.tensor([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0], [1.0, 4.0]])
y = torch.tensor([[6.0], [5.0], [7.0], [10.0]])
sol = torch.linalg.lstsq(A, y)
S = torch.tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
report(sol=sol.solution, pinv=torch.linalg.pinv(A), pinvS=torch.linalg.pinv(S), rank=torch.linalg.matrix_rank(S), rankA=torch.linalg.matrix_rank(A),
       rk_tol=torch.linalg.matrix_rank(torch.diag(torch.tensor([1.0, 1e-3, 1e-9])), atol=1e-4), pinv_h=torch.linalg.pinv(A.T @ A, hermitian=True))
