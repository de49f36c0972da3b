import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 3)), seed=139)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=8, pct_start=0.25)
accum = 2
norms, lrs, losses = [], [], []
for step in range(8):
    x, y = data(4, 4, seed=400 + step), ints(3, 4, seed=500 + step)
    loss = nn.functional.cross_entropy(model(x), y) / accum
    loss.backward()
    losses.append(loss.item())
    if (step + 1) % accum == 0:
        norms.append(nn.utils.clip_grad_norm_(model.parameters(), 0.5).item())
        opt.step()
        opt.zero_grad(set_to_none=True)
    sched.step()
    lrs.append(sched.get_last_lr()[0])
report(norms=norms, lrs=lrs, losses=losses, w=model[2].bias, mom=opt.param_groups[0]["betas"])
