import math
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau, LambdaLR, SequentialLR, LinearLR, CosineAnnealingLR, OneCycleLR, MultiStepLR, CosineAnnealingWarmRestarts, ChainedScheduler, ExponentialLR, ConstantLR
def opt(lr=0.1, kind="sgd"):
    p = [torch.nn.Parameter(torch.zeros(2))]
    if kind == "adam":
        return torch.optim.Adam(p, lr=lr)
    return torch.optim.SGD(p, lr=lr, momentum=0.9)
res = {}
o = opt(); s = ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1, threshold=1e-3, cooldown=1, min_lr=1e-3)
lrs = []
for v in [1.0, 0.9, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.9]:
    s.step(v); lrs.append(o.param_groups[0]["lr"])
res["plateau"] = lrs
o = opt(); warmup = 3; total = 10
s = LambdaLR(o, lr_lambda=lambda step: (step + 1) / warmup if step < warmup else 0.5 * (1 + math.cos(math.pi * (step - warmup) / (total - warmup))))
lrs = []
for _ in range(total):
    o.step(); s.step(); lrs.append(s.get_last_lr()[0])
res["lambda"] = lrs
o = opt(); s = SequentialLR(o, schedulers=[LinearLR(o, start_factor=0.1, total_iters=3), CosineAnnealingLR(o, T_max=5, eta_min=0.01)], milestones=[3])
lrs = []
for _ in range(9):
    o.step(); s.step(); lrs.append(o.param_groups[0]["lr"])
res["seq"] = lrs
o = opt(kind="adam"); s = OneCycleLR(o, max_lr=0.1, total_steps=10, pct_start=0.3)
lrs, b1 = [], []
for _ in range(10):
    o.step(); lrs.append(o.param_groups[0]["lr"]); b1.append(o.param_groups[0]["betas"][0]); s.step()
res["onecycle"] = lrs; res["beta1"] = b1
o = opt(); s = MultiStepLR(o, milestones=[2, 4], gamma=0.3)
res["multistep"] = [(o.step(), s.step(), s.get_last_lr()[0])[2] for _ in range(6)]
o = opt(); s = CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001)
lrs = []
for epoch in range(2):
    for i in range(4):
        o.step(); s.step(epoch + i / 4); lrs.append(o.param_groups[0]["lr"])
res["warm"] = lrs
o = opt(); s = ChainedScheduler([ConstantLR(o, factor=0.5, total_iters=2), ExponentialLR(o, gamma=0.9)])
res["chained"] = [(o.step(), s.step(), o.param_groups[0]["lr"])[2] for _ in range(5)]
res["sd_keys"] = sorted(k for k in s.state_dict().keys())
report(**res)
