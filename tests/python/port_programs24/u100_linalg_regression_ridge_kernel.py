import torch

X = data(15, 3)
w_true = torch.tensor([1.0, -2.0, 0.5])
y = X @ w_true + 0.1 * data(15, seed=2)
lam = 0.5
ridge = torch.linalg.solve(X.T @ X + lam * torch.eye(3), X.T @ y)
chol = torch.cholesky_solve((X.T @ y).unsqueeze(1), torch.linalg.cholesky(X.T @ X + lam * torch.eye(3))).squeeze(1)
K = torch.exp(-torch.cdist(X, X) ** 2 / 2)
alpha = torch.linalg.solve(K + 0.1 * torch.eye(15), y)
pred = K[:3] @ alpha
Xb = data(2, 6, 3, seed=4)
yb = data(2, 6, 1, seed=5)
bsol = torch.linalg.lstsq(Xb, yb).solution
evals, evecs = torch.linalg.eigh(K)
logdet = torch.logdet(K + 0.1 * torch.eye(15))
report(ridge=ridge, chol=chol, pred=pred, bsol=bsol.squeeze(-1), top_eval=evals[-3:], logdet=logdet.item(), trace=torch.trace(K).item(),
       outer=torch.outer(w_true, w_true)[0], addmv=torch.addmv(torch.ones(3), torch.eye(3), w_true, beta=2.0))
