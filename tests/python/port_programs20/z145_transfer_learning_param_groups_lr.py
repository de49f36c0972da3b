# TOL 3e-4  (the conv bias before BatchNorm gets a gradient of rounding noise, 1e-9, which Adam turns into lr-sized steps of either sign: torch and meshflow agree to 1.3e-4 to 1.4e-4 here)
import torch
import torch.nn as nn

backbone = det(nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()))
head = det(nn.Linear(4, 2), seed=3)
model = nn.Sequential(backbone, head)
opt = torch.optim.Adam([{"params": backbone.parameters(), "lr": 1e-4}, {"params": head.parameters(), "lr": 1e-2}])
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[1e-3, 1e-1], total_steps=5)
x, y = data(4, 3, 5, 5), ints(2, 4)
lrs = []
for _ in range(4):
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    sched.step()
    lrs.append([g["lr"] for g in opt.param_groups])
backbone.eval()
for m in backbone.modules():
    if isinstance(m, nn.BatchNorm2d):
        m.track_running_stats = True
report(lrs=lrs, out=model(x), hw=head.weight)
