import io
import torch
import torch.nn as nn
x = data(16, 5); y = data(16, 2, seed=9)
def make(): return det(nn.Sequential(nn.Linear(5, 6), nn.Sigmoid(), nn.Linear(6, 2)), scale=0.5)
kinds = {
    "rprop": lambda p: torch.optim.Rprop(p, lr=0.02, etas=(0.4, 1.3), step_sizes=(1e-5, 1.0)),
    "asgd": lambda p: torch.optim.ASGD(p, lr=0.05, lambd=1e-3, alpha=0.7, t0=3, weight_decay=1e-3),
    "nadam": lambda p: torch.optim.NAdam(p, lr=0.01, momentum_decay=5e-3, weight_decay=1e-2),
    "nadam_dw": lambda p: torch.optim.NAdam(p, lr=0.01, weight_decay=1e-2, decoupled_weight_decay=True),
    "radam": lambda p: torch.optim.RAdam(p, lr=0.01, weight_decay=1e-2),
    "radam_dw": lambda p: torch.optim.RAdam(p, lr=0.01, weight_decay=1e-2, decoupled_weight_decay=True),
    "adamax": lambda p: torch.optim.Adamax(p, lr=0.02, betas=(0.8, 0.95), weight_decay=1e-3),
    "adagrad": lambda p: torch.optim.Adagrad(p, lr=0.05, lr_decay=1e-2, initial_accumulator_value=0.1, eps=1e-8),
    "adadelta": lambda p: torch.optim.Adadelta(p, lr=0.5, rho=0.95, weight_decay=1e-3),
    "sgd_nest": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True, weight_decay=1e-3),
    "adam_max": lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True, maximize=False),
    "rmsprop": lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, centered=True, momentum=0.3, weight_decay=1e-3),
}
def train(m, o, n):
    out = []
    for _ in range(n):
        o.zero_grad(); l = nn.functional.mse_loss(m(x), y); l.backward(); o.step(); out.append(l.item())
    return out
res = {}
for name, mk in kinds.items():
    m = make(); o = mk(m.parameters())
    a = train(m, o, 3)
    buf = io.BytesIO(); torch.save({"model": m.state_dict(), "opt": o.state_dict()}, buf); buf.seek(0)
    b = train(m, o, 3)
    ck = torch.load(buf)
    m2 = make(); m2.load_state_dict(ck["model"]); o2 = mk(m2.parameters()); o2.load_state_dict(ck["opt"])
    c = train(m2, o2, 3)
    res[name] = [a, b, c == b or max(abs(p - q) for p, q in zip(b, c)) < 1e-6, sorted(o.state_dict()["state"][0].keys())]
report(**res)
