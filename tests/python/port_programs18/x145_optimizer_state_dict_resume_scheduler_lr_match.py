import torch
import torch.nn as nn


def build():
    m = det(nn.Linear(2, 2))
    o = torch.optim.AdamW(m.parameters(), lr=1e-2, weight_decay=0.1)
    s = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.05, total_steps=8)
    return m, o, s


x, y = data(4, 2, seed=1), data(4, 2, seed=2)


def train(m, o, s, n):
    for _ in range(n):
        o.zero_grad()
        nn.functional.mse_loss(m(x), y).backward()
        o.step()
        s.step()


m1, o1, s1 = build()
train(m1, o1, s1, 6)
m2, o2, s2 = build()
train(m2, o2, s2, 3)
state = {"m": m2.state_dict(), "o": o2.state_dict(), "s": s2.state_dict()}
m3, o3, s3 = build()
m3.load_state_dict(state["m"])
o3.load_state_dict(state["o"])
s3.load_state_dict(state["s"])
train(m3, o3, s3, 3)
report(same=torch.allclose(m1.weight, m3.weight, atol=1e-6), lr=[o1.param_groups[0]["lr"], o3.param_groups[0]["lr"]],
       mom=o3.param_groups[0]["betas"], step=o3.state_dict()["state"][0]["step"])
