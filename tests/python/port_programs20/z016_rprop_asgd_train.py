import torch
import torch.nn as nn


def run(opt_cls, **kw):
    m = det(nn.Linear(3, 2))
    o = opt_cls(m.parameters(), **kw)
    x, y = data(8, 3), data(8, 2, seed=4)
    out = []
    for _ in range(5):
        o.zero_grad()
        l = nn.functional.mse_loss(m(x), y)
        l.backward()
        o.step()
        out.append(l.item())
    return out, m.weight.detach(), o


r, rw, ro = run(torch.optim.Rprop, lr=0.01, etas=(0.5, 1.2), step_sizes=(1e-6, 50))
a, aw, ao = run(torch.optim.ASGD, lr=0.05, lambd=1e-4, alpha=0.75, t0=2)
st = ao.state[ao.param_groups[0]["params"][0]]
report(r=r, rw=rw, a=a, aw=aw, ax=st["ax"], eta=st["eta"], mu=st["mu"], rkeys=sorted(ro.state[ro.param_groups[0]["params"][0]].keys()),
       akeys=sorted(st.keys()))
