import torch
import torch.nn as nn

model = det(nn.Linear(3, 2))
ema = torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9, dampening=0.1)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3)
decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.8)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, decay], milestones=[3])
x, y = data(10, 3), data(10, 2, seed=6)
lrs = []
for _ in range(7):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step(); ema.update_parameters(model)
    lrs.append(round(opt.param_groups[0]["lr"], 7))
report(lrs=lrs, ema_w=ema.module.weight, w=model.weight, n=ema.n_averaged)
