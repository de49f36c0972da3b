import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LinearLR, CosineAnnealingLR, SequentialLR

m = det(nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Dropout(0.0), nn.Linear(8, 3)))
opt = torch.optim.AdamW(m.parameters(), lr=3e-3, betas=(0.9, 0.95), weight_decay=0.05)
sch = SequentialLR(opt, [LinearLR(opt, 0.01, 1.0, total_iters=2), CosineAnnealingLR(opt, T_max=4, eta_min=1e-5)], milestones=[2])
X, Y = data(24, 4), ints(3, 24)
Xv, Yv = data(8, 4, seed=11), ints(3, 8, seed=12)
log = []
for epoch in range(6):
    m.train()
    for i in range(0, 24, 8):
        opt.zero_grad()
        nn.functional.cross_entropy(m(X[i:i + 8]), Y[i:i + 8]).backward()
        opt.step()
    sch.step()
    m.eval()
    with torch.no_grad():
        out = m(Xv)
        log.append([nn.functional.cross_entropy(out, Yv).item(), (out.argmax(1) == Yv).sum().item(), sch.get_last_lr()[0]])
report(log=log)
