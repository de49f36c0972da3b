import torch


def rbf(a, b, ls=1.0, var=1.0):
    d2 = (a.unsqueeze(1) - b.unsqueeze(0)).pow(2).sum(-1)
    return var * torch.exp(-0.5 * d2 / ls ** 2)


Xtr = torch.linspace(-3, 3, 8).unsqueeze(1).double()
ytr = torch.sin(Xtr).squeeze() + 0.05 * data(8, seed=2).double()
Xte = torch.linspace(-3.5, 3.5, 5).unsqueeze(1).double()
log_ls = torch.zeros((), dtype=torch.float64, requires_grad=True)
log_noise = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([log_ls, log_noise], lr=0.05)
hist = []
for it in range(5):
    K = rbf(Xtr, Xtr, log_ls.exp()) + log_noise.exp() * torch.eye(8, dtype=torch.float64)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(ytr.unsqueeze(1), L)
    nll = 0.5 * ytr @ alpha.squeeze() + L.diagonal().log().sum() + 4 * torch.log(torch.tensor(2 * torch.pi, dtype=torch.float64))
    opt.zero_grad()
    nll.backward()
    opt.step()
    hist.append(nll.item())
with torch.no_grad():
    K = rbf(Xtr, Xtr, log_ls.exp()) + log_noise.exp() * torch.eye(8, dtype=torch.float64)
    L = torch.linalg.cholesky(K)
    Ks = rbf(Xte, Xtr, log_ls.exp())
    mean = Ks @ torch.cholesky_solve(ytr.unsqueeze(1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = rbf(Xte, Xte, log_ls.exp()).diagonal() - v.pow(2).sum(0)
report(hist=hist, mean=mean.squeeze(), var=var, ls=log_ls.exp(), dtype=str(mean.dtype))
