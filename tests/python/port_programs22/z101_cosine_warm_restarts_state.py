import torch
import torch.nn as nn
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts, CyclicLR, PolynomialLR

opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
s = CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
lrs = []
for _ in range(10):
    opt.step()
    s.step()
    lrs.append(round(opt.param_groups[0]["lr"], 7))
sd = s.state_dict()
frac = []
opt3 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
s3 = CosineAnnealingWarmRestarts(opt3, T_0=4)
for i in range(6):
    s3.step(i * 0.5)
    frac.append(opt3.param_groups[0]["lr"])
opt4 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
cyc = CyclicLR(opt4, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
cl = []
for _ in range(9):
    opt4.step()
    cyc.step()
    cl.append(round(opt4.param_groups[0]["lr"], 7))
opt5 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
poly = PolynomialLR(opt5, total_iters=4, power=2.0)
pl = []
for _ in range(5):
    opt5.step()
    poly.step()
    pl.append(poly.get_last_lr()[0])
report(lrs=lrs, T_i=sd["T_i"], T_cur=sd["T_cur"], frac=frac, cl=cl, mom=opt4.param_groups[0]["momentum"], pl=pl)
