import torch

def run(make, steps=8, **kw):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9, **kw)
    s = make(opt)
    lrs = []
    for i in range(steps):
        opt.step()
        s.step()
        lrs.append(round(opt.param_groups[0]["lr"], 8))
    return lrs


cyc2 = run(lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="triangular2"))
cyc_exp = run(lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9))
poly = run(lambda o: torch.optim.lr_scheduler.PolynomialLR(o, total_iters=5, power=2.0))
chained = run(lambda o: torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3),
                                                                     torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)]))
mult = run(lambda o: torch.optim.lr_scheduler.MultiplicativeLR(o, lambda e: 0.95 if e % 2 else 1.0))
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.1)
wr = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)
frac = []
for epoch in range(2):
    for i in range(4):
        wr.step(epoch + i / 4)
        frac.append(round(opt.param_groups[0]["lr"], 8))
report(cyc2=cyc2, cyc_exp=cyc_exp, poly=poly, chained=chained, mult=mult, frac=frac)
