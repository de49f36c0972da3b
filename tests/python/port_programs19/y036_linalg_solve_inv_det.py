import torch
A = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=torch.float64)
b = torch.tensor([[1.0], [2.0], [3.0]], dtype=torch.float64)
sd = torch.linalg.slogdet(A)
report(x=torch.linalg.solve(A, b), inv=torch.linalg.inv(A), det=torch.linalg.det(A), sign=sd.sign, logabs=sd.logabsdet,
       tdet=torch.det(A.float()), invv=torch.inverse(A.float()) @ A.float(), sv=torch.linalg.solve(A, b.squeeze(1)), ld=torch.logdet(A))
