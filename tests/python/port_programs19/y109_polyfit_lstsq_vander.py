import torch
x = torch.linspace(-1, 1, 9, dtype=torch.float64)
y = 2 * x ** 2 - 0.5 * x + 0.25
V = torch.vander(x, N=3)
coef = torch.linalg.lstsq(V, y.unsqueeze(1)).solution.squeeze(1)
coef2 = torch.linalg.pinv(V) @ y
coef3 = torch.linalg.solve(V.T @ V, V.T @ y)
report(coef=coef, coef2=coef2, coef3=coef3, res=(V @ coef - y).abs().max() < 1e-10, V=V[:2])
