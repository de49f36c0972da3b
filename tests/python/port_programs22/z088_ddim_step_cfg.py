import torch
import torch.nn as nn

T = 100
ac = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T), 0)
net = det(nn.Sequential(nn.Linear(3 + 1 + 2, 16), nn.SiLU(), nn.Linear(16, 3)), seed=122)
cond = data(2, 2, seed=123)
null = torch.zeros_like(cond)
ts = torch.linspace(T - 1, 0, 5).long()
x = data(2, 3, seed=124)
scale, eta = 3.0, 0.0
with torch.no_grad():
    for i, t in enumerate(ts):
        xin = torch.cat([x, x])
        c = torch.cat([cond, null])
        tt = torch.full((4, 1), t.item() / T)
        eps_c, eps_u = net(torch.cat([xin, tt, c], 1)).chunk(2)
        eps = eps_u + scale * (eps_c - eps_u)
        a_t = ac[t]
        a_prev = ac[ts[i + 1]] if i + 1 < len(ts) else torch.tensor(1.0)
        x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        sigma = eta * ((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev)).sqrt()
        x = a_prev.sqrt() * x0 + (1 - a_prev - sigma ** 2).sqrt() * eps
report(ts=ts, x=x, ts_dtype=ts.dtype)
