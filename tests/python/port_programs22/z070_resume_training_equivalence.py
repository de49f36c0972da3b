import torch
import torch.nn as nn

def make():
    m = det(nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1)), seed=86)
    o = torch.optim.Adam(m.parameters(), lr=0.01)
    s = torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)
    return m, o, s

def train(m, o, s, steps, start):
    for i in range(start, start + steps):
        x, y = data(4, 3, seed=200 + i), data(4, 1, seed=300 + i)
        o.zero_grad()
        nn.functional.mse_loss(m(x), y).backward()
        o.step()
        s.step()

m, o, s = make()
train(m, o, s, 6, 0)
m1, o1, s1 = make()
train(m1, o1, s1, 3, 0)
torch.save({"m": m1.state_dict(), "o": o1.state_dict(), "s": s1.state_dict()}, "c.pt")
m2, o2, s2 = make()
ck = torch.load("c.pt")
m2.load_state_dict(ck["m"])
o2.load_state_dict(ck["o"])
s2.load_state_dict(ck["s"])
train(m2, o2, s2, 3, 3)
report(same=all(torch.allclose(a, b, atol=1e-6) for a, b in zip(m.parameters(), m2.parameters())), w=m[2].weight,
       lr=o2.param_groups[0]["lr"], last_epoch=s2.last_epoch)
