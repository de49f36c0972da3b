import torch
import torch.nn as nn
from torch.optim.lr_scheduler import ReduceLROnPlateau

res = {}
for mode in ("min", "max"):
    for tm in ("rel", "abs"):
        opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
        s = ReduceLROnPlateau(opt, mode=mode, factor=0.1, patience=0, threshold=0.05, threshold_mode=tm, eps=0.05)
        lrs = []
        for m in [1.0, 0.97, 1.02, 0.9, 0.88, 1.2, 1.21]:
            s.step(m)
            lrs.append(opt.param_groups[0]["lr"])
        res[f"{mode}_{tm}"] = lrs
opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
s = ReduceLROnPlateau(opt, patience=2)
for m in [torch.tensor(1.0), 1.0, 1.0, 1.0]:
    s.step(m)
res["tensor_metric"] = opt.param_groups[0]["lr"]
res["last_lr"] = s.get_last_lr()
report(**res)
