import torch
from torch import nn
from torch.optim import lr_scheduler as S
def run(make_sched, steps=12, opt_cls=torch.optim.SGD, **kw):
    p = nn.Parameter(torch.zeros(2))
    opt = opt_cls([p], lr=0.1, **kw)
    sched = make_sched(opt)
    lrs = []
    for _ in range(steps):
        opt.step()
        sched.step()
        lrs.append(round(opt.param_groups[0]["lr"], 7))
    return lrs
res = {
    "onecycle": run(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=13)),
    "onecycle_lin": run(lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=12, anneal_strategy="linear", pct_start=0.25), steps=11),
    "warm": run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)),
    "seq": run(lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=3), S.ExponentialLR(o, gamma=0.9)], milestones=[3])),
    "chain": run(lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.9)])),
    "lambda": run(lambda o: S.LambdaLR(o, lambda s: min(1.0, (s + 1) / 4) * 0.95 ** s)),
    "poly": run(lambda o: S.PolynomialLR(o, total_iters=8, power=2.0)),
    "cyclic": run(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2"), momentum=0.9),
    "multistep": run(lambda o: S.MultiStepLR(o, milestones=[2, 5, 9], gamma=0.5)),
    "mult": run(lambda o: S.MultiplicativeLR(o, lr_lambda=lambda e: 0.95)),
    "cos": run(lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.001)),
}
p = nn.Parameter(torch.zeros(1)); opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
oc = S.OneCycleLR(opt, max_lr=1.0, total_steps=10)
mom = []
for _ in range(5):
    opt.step(); oc.step(); mom.append(round(opt.param_groups[0]["momentum"], 6))
report(res=res, mom=mom, last=oc.get_last_lr())
