import torch
import torch.nn as nn

lin = nn.Linear(2, 2)


def run(make_opt, make_sched, steps=8, metric=None):
    opt = make_opt([lin.weight])
    sched = make_sched(opt)
    lrs = []
    for i in range(steps):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric[i])
        lrs.append(round(opt.param_groups[0]["lr"], 8))
    return lrs


sgd = lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)
adam = lambda p: torch.optim.Adam(p, lr=0.01)
out = {}
out["step"] = run(sgd, lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
out["multistep"] = run(sgd, lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1))
out["cos"] = run(sgd, lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01))
out["warm"] = run(sgd, lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001))
out["linear"] = run(sgd, lambda o: torch.optim.lr_scheduler.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=4))
out["const"] = run(sgd, lambda o: torch.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3))
out["poly"] = run(sgd, lambda o: torch.optim.lr_scheduler.PolynomialLR(o, total_iters=6, power=2.0))
out["lambda"] = run(sgd, lambda o: torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1 / (1 + e)))
out["mult"] = run(sgd, lambda o: torch.optim.lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.9))
out["onecycle"] = run(sgd, lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=8, pct_start=0.25,
                                                                         anneal_strategy="linear", div_factor=10.0,
                                                                         final_div_factor=100.0, three_phase=True))
out["cyclic"] = run(sgd, lambda o: torch.optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3,
                                                                     mode="exp_range", gamma=0.9))
out["cyc_tri2"] = run(sgd, lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="triangular2",
                                                                       cycle_momentum=False))
out["seq"] = run(sgd, lambda o: torch.optim.lr_scheduler.SequentialLR(o, [torch.optim.lr_scheduler.LinearLR(o, 0.1, total_iters=3),
                                                                         torch.optim.lr_scheduler.ExponentialLR(o, 0.8)],
                                                                     milestones=[3]))
out["chain"] = run(sgd, lambda o: torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(o, 0.5, 2),
                                                                              torch.optim.lr_scheduler.ExponentialLR(o, 0.9)]))
out["plateau"] = run(adam, lambda o: torch.optim.lr_scheduler.ReduceLROnPlateau(o, mode="max", factor=0.5, patience=1, threshold=0.1,
                                                                               threshold_mode="abs", cooldown=1, min_lr=1e-3),
                     metric=[1.0, 1.05, 1.02, 1.01, 1.3, 1.3, 1.3, 1.3])
report(**out)
