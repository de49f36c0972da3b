import torch
import torch.nn as nn


def make():
    m = det(nn.Linear(3, 2))
    opt = torch.optim.Adam(m.parameters(), lr=0.01)
    s = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)
    return m, opt, s


X, Y = data(12, 3, seed=1), data(12, 2, seed=2)


def run(m, opt, s, start, stop):
    noise = []
    for i in range(start, stop):
        xb = X[i % 12: i % 12 + 3]
        eps = torch.randn(1).item()
        noise.append(round(eps, 5))
        loss = ((m(xb) - Y[i % 12: i % 12 + 3]) ** 2).mean() + 0 * eps
        opt.zero_grad()
        loss.backward()
        opt.step()
        s.step()
    return noise


torch.manual_seed(0)
m, opt, s = make()
n1 = run(m, opt, s, 0, 6)
torch.manual_seed(0)
m2, opt2, s2 = make()
n2a = run(m2, opt2, s2, 0, 3)
ck = {"model": m2.state_dict(), "opt": opt2.state_dict(), "sched": s2.state_dict(), "rng": torch.get_rng_state(),
      "step": 3}
torch.save(ck, "ck.pt")
ck = torch.load("ck.pt")
m3, opt3, s3 = make()
m3.load_state_dict(ck["model"])
opt3.load_state_dict(ck["opt"])
s3.load_state_dict(ck["sched"])
torch.set_rng_state(ck["rng"])
n2b = run(m3, opt3, s3, ck["step"], 6)
report(same_noise=n1 == n2a + n2b, same_w=torch.allclose(m.weight, m3.weight), lr=opt3.param_groups[0]["lr"],
       w=m3.weight, epoch=s3.last_epoch)
