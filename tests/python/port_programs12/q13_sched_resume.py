import torch
from torch.optim import lr_scheduler as S
def mk(lr=0.1):
    p = torch.nn.Parameter(torch.ones(2)); return torch.optim.SGD([p], lr=lr, momentum=0.9)
def run(o, s, n, metric=None):
    out = []
    for i in range(n):
        o.step()
        if metric is None: s.step()
        else: s.step(metric[i])
        out.append(round(o.param_groups[0]["lr"], 10))
    return out
res = {}
builders = {
    "seq3": lambda o: S.SequentialLR(o, [S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.8), S.StepLR(o, step_size=2, gamma=0.1)], milestones=[3, 6]),
    "chained": lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.1, total_iters=2), S.ExponentialLR(o, gamma=0.9), S.MultiplicativeLR(o, lr_lambda=lambda e: 0.95)]),
    "warm_restarts": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001),
    "poly": lambda o: S.PolynomialLR(o, total_iters=6, power=2.0),
    "onecycle3": lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=12, three_phase=True, anneal_strategy="linear", div_factor=10, final_div_factor=100),
    "cyclic_tri2": lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2", cycle_momentum=False),
    "cyclic_exp": lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=1, mode="exp_range", gamma=0.9),
    "multistep": lambda o: S.MultiStepLR(o, milestones=[2, 5, 7], gamma=0.3),
    "linear": lambda o: S.LinearLR(o, start_factor=1.0, end_factor=0.2, total_iters=5),
    "cosine": lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.01),
}
for name, b in builders.items():
    o = mk(); s = b(o)
    first = run(o, s, 5)
    sd = s.state_dict(); osd = o.state_dict()
    rest = run(o, s, 6)
    o2 = mk(); s2 = b(o2); o2.load_state_dict(osd); s2.load_state_dict(sd)
    resumed = run(o2, s2, 6)
    res[name] = [first, rest, resumed, [round(v, 10) for v in s.get_last_lr()]]
o = mk(); s = S.ReduceLROnPlateau(o, mode="max", factor=0.5, patience=1, threshold=0.1, threshold_mode="abs", cooldown=1, min_lr=0.01, eps=1e-4)
res["plateau_max"] = run(o, s, 10, [0.1, 0.5, 0.55, 0.58, 0.6, 0.9, 0.95, 0.96, 0.97, 0.98])
sd = s.state_dict(); res["plateau_sd"] = [sd["best"], sd["num_bad_epochs"], sd["cooldown_counter"], sd["last_epoch"]]
o = mk(); s = S.CosineAnnealingWarmRestarts(o, T_0=4, eta_min=0.0)
lrs = []
for epoch in range(2):
    for i in range(4):
        s.step(epoch + i / 4); lrs.append(round(o.param_groups[0]["lr"], 10))
res["wr_fraction"] = lrs
o = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
s = S.OneCycleLR(o, max_lr=0.1, epochs=2, steps_per_epoch=3, three_phase=True)
mom = []
for _ in range(6):
    o.step(); s.step(); mom.append([round(o.param_groups[0]["lr"], 10), round(o.param_groups[0]["betas"][0], 10)])
res["oc_adam"] = mom
report(**res)
