import torch
import torch.nn as nn


def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


results = {}
for name, ctor in [
    ("sgd", lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, dampening=0.1)),
    ("adam", lambda ps: torch.optim.Adam(ps, lr=0.05, betas=(0.8, 0.9))),
    ("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1)),
    ("adamax", lambda ps: torch.optim.Adamax(ps, lr=0.05)),
    ("nadam", lambda ps: torch.optim.NAdam(ps, lr=0.05, momentum_decay=4e-3)),
    ("radam", lambda ps: torch.optim.RAdam(ps, lr=0.05)),
    ("adagrad", lambda ps: torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.01)),
    ("rmsprop", lambda ps: torch.optim.RMSprop(ps, lr=0.01, momentum=0.5, centered=True)),
    ("rprop", lambda ps: torch.optim.Rprop(ps, lr=0.01, etas=(0.4, 1.3), step_sizes=(1e-4, 1.0))),
    ("asgd", lambda ps: torch.optim.ASGD(ps, lr=1e-3, t0=2)),
    ("adadelta", lambda ps: torch.optim.Adadelta(ps, lr=1.0, rho=0.8)),
]:
    p = nn.Parameter(torch.tensor([-1.0, 1.5]))
    opt = ctor([p])
    for _ in range(10):
        opt.zero_grad()
        loss = rosen(p)
        loss.backward()
        opt.step()
    results[name] = p.detach().clone()
p = nn.Parameter(torch.tensor([-1.0, 1.5]))
lb = torch.optim.LBFGS([p], lr=1, max_iter=20, history_size=10, line_search_fn="strong_wolfe")


def closure():
    lb.zero_grad()
    l = rosen(p)
    l.backward()
    return l


for _ in range(3):
    final = lb.step(closure)
results["lbfgs"] = p.detach().clone()
results["lbfgs_loss"] = rosen(p).item() < 1e-3
results["defaults"] = {k: v for k, v in torch.optim.Adam([nn.Parameter(torch.ones(1))]).defaults.items()
                       if k in ("lr", "betas", "eps", "weight_decay", "amsgrad")}
report(**results)
