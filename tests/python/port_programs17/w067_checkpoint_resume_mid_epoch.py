import torch
import torch.nn as nn


def make():
    m = det(nn.Linear(3, 2))
    o = torch.optim.Adam(m.parameters(), lr=0.1)
    s = torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)
    return m, o, s


X, Y = data(12, 3, seed=1), data(12, 2, seed=2)


def run(m, o, s, start, stop, ck=None):
    for it in range(start, stop):
        b = it % 3
        loss = nn.functional.mse_loss(m(X[b * 4:b * 4 + 4]), Y[b * 4:b * 4 + 4])
        o.zero_grad()
        loss.backward()
        o.step()
        if (it + 1) % 3 == 0:
            s.step()
        if ck is not None and it == ck:
            torch.save({"model": m.state_dict(), "optim": o.state_dict(), "sched": s.state_dict(), "iter": it + 1}, "ck.pt")


m, o, s = make()
run(m, o, s, 0, 10, ck=4)
m2, o2, s2 = make()
ck = torch.load("ck.pt")
m2.load_state_dict(ck["model"])
o2.load_state_dict(ck["optim"])
s2.load_state_dict(ck["sched"])
run(m2, o2, s2, ck["iter"], 10)
report(same=torch.allclose(m.weight, m2.weight, atol=1e-6), w=m2.weight, lr=o2.param_groups[0]["lr"], it=ck["iter"],
       ep=s2.last_epoch, st=o2.state_dict()["state"][0]["step"])
