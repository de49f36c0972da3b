import torch
import torch.nn as nn

m = det(nn.Linear(2, 1))
opt = torch.optim.Adam(m.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, "min", factor=0.3, patience=1, threshold=0.05, threshold_mode="rel")
x, y = data(10, 2), data(10, 1, seed=4)
log = []
for epoch in range(8):
    opt.zero_grad()
    l = nn.functional.l1_loss(m(x), y)
    l.backward()
    opt.step()
    with torch.no_grad():
        val = nn.functional.l1_loss(m(x), y).item()
    sch.step(val)
    log.append([round(val, 5), sch.get_last_lr()[0]])
report(log=log, best=sch.best, ne=sch.num_bad_epochs, cooldown=sch.cooldown_counter)
