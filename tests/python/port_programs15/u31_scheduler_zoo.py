import torch
from torch import optim

def run(make, steps=8, opt_cls=optim.SGD, **okw):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = opt_cls([p], lr=0.1, **okw)
    sch = make(opt)
    lrs = []
    for _ in range(steps):
        opt.step()
        sch.step()
        lrs.append(round(opt.param_groups[0]["lr"], 8))
    return lrs


out = {
    "step": run(lambda o: optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5)),
    "multistep": run(lambda o: optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1)),
    "exp": run(lambda o: optim.lr_scheduler.ExponentialLR(o, gamma=0.9)),
    "cos_wr": run(lambda o: optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)),
    "poly": run(lambda o: optim.lr_scheduler.PolynomialLR(o, total_iters=5, power=2.0)),
    "linear": run(lambda o: optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4)),
    "const": run(lambda o: optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3)),
    "mult": run(lambda o: optim.lr_scheduler.MultiplicativeLR(o, lambda e: 0.95)),
    "cyclic": run(lambda o: optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2"),
                  momentum=0.9),
    "onecycle": run(lambda o: optim.lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=8, anneal_strategy="linear"),
                    momentum=0.9),
    "seq": run(lambda o: optim.lr_scheduler.SequentialLR(o, [optim.lr_scheduler.LinearLR(o, 0.1, total_iters=2),
                                                              optim.lr_scheduler.ExponentialLR(o, 0.8)], milestones=[3])),
    "chain": run(lambda o: optim.lr_scheduler.ChainedScheduler([optim.lr_scheduler.ConstantLR(o, 0.5, total_iters=2),
                                                                  optim.lr_scheduler.ExponentialLR(o, 0.9)])),
}
p = torch.nn.Parameter(torch.zeros(1))
o = optim.Adam([p], lr=1.0)
plat = optim.lr_scheduler.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.1)
vals = [1.0, 0.9, 0.9, 0.9, 0.9, 0.95, 0.9, 0.9, 0.9, 0.9]
plr = []
for v in vals:
    plat.step(v)
    plr.append(o.param_groups[0]["lr"])
out["plateau"] = plr
sd = optim.lr_scheduler.StepLR(optim.SGD([p], lr=0.1), 2).state_dict()
out["sd_keys"] = sorted(k for k in sd if not k.startswith("_"))
report(**out)
