import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LinearLR, CosineAnnealingLR, SequentialLR, StepLR

model = nn.Linear(2, 1)
opt = torch.optim.AdamW([{"params": [model.weight], "lr": 1e-2}, {"params": [model.bias], "lr": 1e-3}])
s = SequentialLR(opt, [LinearLR(opt, 0.01, 1.0, total_iters=2), CosineAnnealingLR(opt, T_max=4, eta_min=1e-5)], milestones=[2])
hist = []
for _ in range(4):
    opt.step()
    s.step()
    hist.append([round(g["lr"], 8) for g in opt.param_groups])
sd = s.state_dict()
opt2 = torch.optim.AdamW([{"params": [model.weight], "lr": 1e-2}, {"params": [model.bias], "lr": 1e-3}])
s2 = SequentialLR(opt2, [LinearLR(opt2, 0.01, 1.0, total_iters=2), CosineAnnealingLR(opt2, T_max=4, eta_min=1e-5)], milestones=[2])
s2.load_state_dict(sd)
opt2.load_state_dict(opt.state_dict())
cont = []
for _ in range(3):
    opt2.step()
    s2.step()
    cont.append([round(g["lr"], 8) for g in opt2.param_groups])
ref = []
for _ in range(3):
    opt.step()
    s.step()
    ref.append([round(g["lr"], 8) for g in opt.param_groups])
st = StepLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0), step_size=1, gamma=0.5)
st_sd = st.state_dict()
report(hist=hist, cont=cont, ref=ref, last_epoch=sd["last_epoch"], st_keys=sorted(st_sd))
