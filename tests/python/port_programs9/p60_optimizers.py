import torch
import torch.nn as nn
x = data(12, 4); y = data(12, 1, seed=3)
res = {}
makers = {
    "sgd_damp": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.1, weight_decay=1e-3),
    "adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=1e-3, initial_accumulator_value=0.1),
    "adamax": lambda p: torch.optim.Adamax(p, lr=0.02),
    "nadam": lambda p: torch.optim.NAdam(p, lr=0.02),
    "radam": lambda p: torch.optim.RAdam(p, lr=0.02),
    "adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.8),
    "rprop": lambda p: torch.optim.Rprop(p, lr=0.01),
    "asgd": lambda p: torch.optim.ASGD(p, lr=0.05, t0=2),
    "rmsprop_c": lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5),
    "adamw_ams": lambda p: torch.optim.AdamW(p, lr=0.02, amsgrad=True, weight_decay=0.05),
    "adam_wd": lambda p: torch.optim.Adam(p, lr=0.02, weight_decay=0.05, betas=(0.8, 0.9)),
}
for name, mk in makers.items():
    m = det(nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 1)), 0, 0.5)
    o = mk(m.parameters())
    hist = []
    for _ in range(4):
        o.zero_grad(); loss = nn.functional.mse_loss(m(x), y); loss.backward(); o.step(); hist.append(loss.item())
    res[name] = hist
report(**res)
