import torch

def run(make, n=8, **kw):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    s = make(opt)
    out = []
    for _ in range(n):
        opt.step()
        s.step()
        out.append(round(opt.param_groups[0]["lr"], 7))
    return out, round(opt.param_groups[0]["momentum"], 6)


report(lam=run(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 0.95 ** e if e > 2 else (e + 1) / 3)),
       mul=run(lambda o: torch.optim.lr_scheduler.MultiplicativeLR(o, lambda e: 0.9)),
       cyc=run(lambda o: torch.optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2")),
       cosw=run(lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001)),
       poly=run(lambda o: torch.optim.lr_scheduler.PolynomialLR(o, total_iters=5, power=2.0)),
       const=run(lambda o: torch.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3)))
