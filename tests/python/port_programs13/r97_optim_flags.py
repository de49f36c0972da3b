import torch
import torch.nn as nn
def run(make, steps=4):
    torch.manual_seed(0)
    w = nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    opt = make([w])
    for i in range(steps):
        opt.zero_grad()
        loss = ((w - torch.tensor([0.5, 0.5, 0.5])) ** 2 * torch.tensor([1.0, 2.0, 3.0])).sum()
        loss.backward()
        opt.step()
    return w.detach()
O = torch.optim
res = {
    "adam_max": run(lambda p: O.Adam(p, lr=0.1, maximize=True)),
    "sgd_damp": run(lambda p: O.SGD(p, lr=0.05, momentum=0.9, dampening=0.5, weight_decay=0.01)),
    "adamw_ams": run(lambda p: O.AdamW(p, lr=0.1, amsgrad=True, weight_decay=0.1)),
    "nadam": run(lambda p: O.NAdam(p, lr=0.1, momentum_decay=0.004, weight_decay=0.01, decoupled_weight_decay=True)),
    "radam": run(lambda p: O.RAdam(p, lr=0.1, decoupled_weight_decay=True, weight_decay=0.1), steps=8),
    "adagrad": run(lambda p: O.Adagrad(p, lr=0.5, lr_decay=0.01, initial_accumulator_value=0.1)),
    "rprop": run(lambda p: O.Rprop(p, lr=0.05, etas=(0.4, 1.3), step_sizes=(1e-4, 1.0))),
    "asgd": run(lambda p: O.ASGD(p, lr=0.05, t0=2)),
    "adamax": run(lambda p: O.Adamax(p, lr=0.2, weight_decay=0.01)),
    "adadelta": run(lambda p: O.Adadelta(p, lr=1.0, rho=0.8)),
    "rmsprop_c": run(lambda p: O.RMSprop(p, lr=0.05, centered=True, momentum=0.5)),
    "sgd_nest_max": run(lambda p: O.SGD(p, lr=0.05, momentum=0.8, nesterov=True, maximize=True)),
}
report(**res)
