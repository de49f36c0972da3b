import torch


def run(make, steps=3, closure=False):
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
    opt = make([w])
    for i in range(steps):
        def loss_fn():
            opt.zero_grad()
            loss = (w ** 2 * torch.tensor([1.0, 2.0, 3.0])).sum() + w.prod()
            loss.backward()
            return loss
        if closure:
            opt.step(loss_fn)
        else:
            loss_fn()
            opt.step()
    return [round(v, 6) for v in w.tolist()]


out = {
    "sgd": run(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, dampening=0.2, weight_decay=0.01, nesterov=False, maximize=False)),
    "sgd_max": run(lambda p: torch.optim.SGD(p, lr=0.01, maximize=True)),
    "adam": run(lambda p: torch.optim.Adam(p, lr=0.1, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1, amsgrad=True, maximize=False)),
    "adamw": run(lambda p: torch.optim.AdamW(p, lr=0.1, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.5, amsgrad=False)),
    "rms": run(lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.95, eps=1e-8, weight_decay=0.1, momentum=0.3, centered=True)),
    "adagrad": run(lambda p: torch.optim.Adagrad(p, lr=0.5, lr_decay=0.1, weight_decay=0.05, initial_accumulator_value=0.2, eps=1e-10)),
    "adadelta": run(lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.8, eps=1e-5, weight_decay=0.1)),
    "adamax": run(lambda p: torch.optim.Adamax(p, lr=0.1, betas=(0.7, 0.9), weight_decay=0.01)),
    "nadam": run(lambda p: torch.optim.NAdam(p, lr=0.1, momentum_decay=0.01, decoupled_weight_decay=True, weight_decay=0.1)),
    "radam": run(lambda p: torch.optim.RAdam(p, lr=0.1, betas=(0.9, 0.999), weight_decay=0.1, decoupled_weight_decay=False), steps=8),
    "asgd": run(lambda p: torch.optim.ASGD(p, lr=0.05, lambd=1e-3, alpha=0.75, t0=1.0, weight_decay=0.01)),
    "rprop": run(lambda p: torch.optim.Rprop(p, lr=0.05, etas=(0.4, 1.3), step_sizes=(1e-4, 1.0))),
    "lbfgs": run(lambda p: torch.optim.LBFGS(p, lr=0.5, max_iter=4, history_size=3, line_search_fn="strong_wolfe"), steps=2, closure=True),
}
opt = torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=0.1)
report(**out, defaults=sorted(opt.defaults.keys()), group_keys=sorted(opt.param_groups[0].keys()))
