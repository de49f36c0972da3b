import torch

x = torch.linspace(-1, 1, 20)
y = 3 * x ** 3 - 2 * x + 0.5
w = torch.zeros(4, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe")
feats = torch.stack([x ** 3, x ** 2, x, torch.ones_like(x)], 1)


def closure():
    opt.zero_grad()
    loss = ((feats @ w - y) ** 2).mean()
    loss.backward()
    return loss


for _ in range(3):
    loss = opt.step(closure)
st = opt.state[opt.param_groups[0]["params"][0]]
report(w=w, loss=closure().item() < 1e-8, n_iter=st["n_iter"] > 0, keys=sorted(opt.defaults.keys()))
