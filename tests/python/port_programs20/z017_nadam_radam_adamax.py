import torch
import torch.nn as nn


def run(opt_cls, steps=6, **kw):
    m = det(nn.Linear(3, 2))
    o = opt_cls(m.parameters(), **kw)
    x, y = data(8, 3), data(8, 2, seed=4)
    for _ in range(steps):
        o.zero_grad()
        nn.functional.mse_loss(m(x), y).backward()
        o.step()
    return m.weight.detach().clone(), m.bias.detach().clone()


report(nadam=run(torch.optim.NAdam, lr=0.01), nadam_wd=run(torch.optim.NAdam, lr=0.01, weight_decay=0.1, momentum_decay=0.004),
       nadam_dec=run(torch.optim.NAdam, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True),
       radam=run(torch.optim.RAdam, lr=0.01), radam_long=run(torch.optim.RAdam, steps=8, lr=0.01, weight_decay=0.01),
       radam_dec=run(torch.optim.RAdam, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True),
       adamax=run(torch.optim.Adamax, lr=0.02, weight_decay=0.01), adagrad=run(torch.optim.Adagrad, lr=0.1, lr_decay=0.01),
       adadelta=run(torch.optim.Adadelta, lr=1.0, rho=0.9))
