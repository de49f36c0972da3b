import torch
import torch.nn as nn
from torch.optim.lr_scheduler import ExponentialLR, MultiStepLR, OneCycleLR, ReduceLROnPlateau, CosineAnnealingLR, LambdaLR, SequentialLR, LinearLR

model = [nn.Parameter(torch.randn(2, 2, requires_grad=True))]
optimizer = torch.optim.SGD(model, 0.1)
scheduler1 = ExponentialLR(optimizer, gamma=0.9)
scheduler2 = MultiStepLR(optimizer, milestones=[3, 5], gamma=0.1)
lrs = []
for epoch in range(7):
    optimizer.step()
    scheduler1.step()
    scheduler2.step()
    lrs.append(round(optimizer.param_groups[0]['lr'], 8))
opt2 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
one = OneCycleLR(opt2, max_lr=0.5, total_steps=10)
one_lrs = []
moms = []
for _ in range(10):
    opt2.step()
    one_lrs.append(round(one.get_last_lr()[0], 7))
    moms.append(round(opt2.param_groups[0]['momentum'], 7))
    one.step()
opt3 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
plateau = ReduceLROnPlateau(opt3, mode='min', factor=0.5, patience=1)
pl = []
for val in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7]:
    plateau.step(val)
    pl.append(opt3.param_groups[0]['lr'])
opt4 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
warm = LinearLR(opt4, start_factor=0.25, total_iters=2)
cos = CosineAnnealingLR(opt4, T_max=4)
seq = SequentialLR(opt4, schedulers=[warm, cos], milestones=[2])
sl = []
for _ in range(6):
    opt4.step()
    sl.append(round(seq.get_last_lr()[0], 7))
    seq.step()
opt5 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.5)
lam = LambdaLR(opt5, lr_lambda=lambda epoch: 0.95 ** epoch)
ll = []
for _ in range(3):
    opt5.step()
    lam.step()
    ll.append(round(lam.get_last_lr()[0], 7))
report(lrs=lrs, one=one_lrs, moms=moms, plateau=pl, seq=sl, lam=ll)
