import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)))
opt = torch.optim.AdamW(m.parameters(), lr=0.05, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=6, pct_start=0.3, anneal_strategy="cos")
X, Y = data(16, 4, seed=1), data(16, 1, seed=2)
accum = 2
norms, lrs, losses = [], [], []
for step in range(12):
    xb, yb = X[(step % 4) * 4:(step % 4) * 4 + 4], Y[(step % 4) * 4:(step % 4) * 4 + 4]
    loss = nn.functional.mse_loss(m(xb), yb) / accum
    loss.backward()
    if (step + 1) % accum == 0:
        norms.append(float(torch.nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5)))
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        lrs.append(sched.get_last_lr()[0])
    losses.append(loss.item())
report(norms=norms, lrs=lrs, losses=losses, grad_none=m[0].weight.grad is None)
# TOL 5e-4
