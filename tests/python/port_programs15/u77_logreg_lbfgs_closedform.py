import torch
# TOL 1e-3 -- LBFGS stops where the loss changes by less than tolerance_change, which at this
# flat optimum is float32 rounding (torch stops after 15 iterations, meshflow after 18, with
# equal losses), so the weights agree to the optimum's flatness, not to 1e-4.

X = data(40, 3)
w_true = torch.tensor([1.5, -2.0, 0.5])
y = (X @ w_true + 0.3 > 0).float()
Xb = torch.cat([X, torch.ones(40, 1)], 1)
w = torch.zeros(4, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=0.5, max_iter=50, tolerance_grad=1e-9, tolerance_change=1e-12)


def closure():
    opt.zero_grad()
    loss = torch.nn.functional.binary_cross_entropy_with_logits(Xb @ w, y) + 0.01 * w[:3].pow(2).sum()
    loss.backward()
    return loss


opt.step(closure)
acc = ((Xb @ w > 0).float() == y).float().mean()
yr = X @ w_true + 0.1 * data(40, seed=5)
beta = torch.linalg.lstsq(Xb, yr.unsqueeze(1)).solution.squeeze()
ridge = torch.linalg.solve(Xb.T @ Xb + 0.5 * torch.eye(4), Xb.T @ yr)
normal_eq = torch.linalg.inv(Xb.T @ Xb) @ Xb.T @ yr
state = opt.state[w]
report(loss=closure().item(), w=w.detach(), acc=acc, beta=beta, ridge=ridge, normal_ok=torch.allclose(normal_eq, beta, atol=1e-4),
       n_iter=state["n_iter"] > 0, func_evals=state["func_evals"] > 0)
