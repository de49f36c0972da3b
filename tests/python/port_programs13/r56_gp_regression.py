import math
import torch
X = torch.linspace(0, 5, 8, dtype=torch.float64).unsqueeze(1)
y = torch.sin(X).squeeze(1) + 0.1 * data(8).double()
Xs = torch.linspace(0, 5, 4, dtype=torch.float64).unsqueeze(1)
log_ls = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
log_sf = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
log_sn = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)
def rbf(a, b):
    d2 = torch.cdist(a, b) ** 2
    return log_sf.exp() ** 2 * torch.exp(-0.5 * d2 / log_ls.exp() ** 2)
opt = torch.optim.Adam([log_ls, log_sf, log_sn], lr=0.05)
nlls = []
for _ in range(5):
    K = rbf(X, X) + (log_sn.exp() ** 2 + 1e-6) * torch.eye(8, dtype=torch.float64)
    Lc = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), Lc)
    nll = 0.5 * (y.unsqueeze(0) @ alpha).squeeze() + torch.log(torch.diagonal(Lc)).sum() + 0.5 * 8 * math.log(2 * math.pi)
    opt.zero_grad(); nll.backward(); opt.step(); nlls.append(nll.item())
with torch.no_grad():
    Ks = rbf(Xs, X)
    mu = Ks @ alpha
    v = torch.linalg.solve_triangular(Lc, Ks.T, upper=False)
    var = torch.diagonal(rbf(Xs, Xs)) - (v ** 2).sum(0)
    ld = torch.logdet(K)
report(nlls=nlls, mu=mu.squeeze(1), var=var, ld=ld, dtype=mu.dtype, sld=torch.linalg.slogdet(K)[1])
# TOL 1e-5
