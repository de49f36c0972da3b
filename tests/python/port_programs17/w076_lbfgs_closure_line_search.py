import torch

x0 = torch.tensor([-1.2, 1.0], requires_grad=True)
opt = torch.optim.LBFGS([x0], lr=1, max_iter=50, history_size=5, line_search_fn="strong_wolfe", tolerance_grad=1e-9, tolerance_change=1e-12)


def closure():
    opt.zero_grad()
    loss = (1 - x0[0]) ** 2 + 100 * (x0[1] - x0[0] ** 2) ** 2
    loss.backward()
    return loss


for _ in range(3):
    l = opt.step(closure)
report(x=x0, l=l, n=opt.state[opt._params[0]]["n_iter"] > 0)
# TOL 1e-3
