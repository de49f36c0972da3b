import torch
import torch.nn as nn

results = {}
configs = {
    "adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1, initial_accumulator_value=0.1, weight_decay=0.01),
    "adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.8, weight_decay=0.01),
    "adamax": lambda p: torch.optim.Adamax(p, lr=0.05, weight_decay=0.01),
    "nadam": lambda p: torch.optim.NAdam(p, lr=0.05, momentum_decay=0.005),
    "nadam_dw": lambda p: torch.optim.NAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "radam": lambda p: torch.optim.RAdam(p, lr=0.05, weight_decay=0.01),
    "radam_dw": lambda p: torch.optim.RAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "adam_max": lambda p: torch.optim.Adam(p, lr=0.05, maximize=True),
    "amsgrad": lambda p: torch.optim.AdamW(p, lr=0.05, amsgrad=True),
    "sgd_max": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.5, maximize=True),
    "rprop": lambda p: torch.optim.Rprop(p, lr=0.05, etas=(0.4, 1.3), step_sizes=(1e-3, 1.0)),
    "asgd": lambda p: torch.optim.ASGD(p, lr=0.05, t0=2),
    "rms_c": lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5),
}
x, y = data(8, 3), data(8, 1, seed=5)
for name, make in configs.items():
    model = det(nn.Linear(3, 1))
    opt = make(model.parameters())
    for _ in range(6):
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    results[name] = [loss.item()] + model.weight.detach().flatten().tolist()
report(**results)
