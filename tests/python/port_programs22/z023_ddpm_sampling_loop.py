import torch
import torch.nn as nn

T = 10
betas = torch.linspace(1e-3, 0.2, T)
alphas = 1 - betas
ac = torch.cumprod(alphas, 0)
ac_prev = torch.cat([torch.ones(1), ac[:-1]])
post_var = betas * (1 - ac_prev) / (1 - ac)
post_log_var = torch.log(post_var.clamp(min=1e-20))
model = det(nn.Sequential(nn.Linear(5, 16), nn.SiLU(), nn.Linear(16, 4)), seed=24)

@torch.no_grad()
def p_sample(x, t, noise):
    tt = torch.full((x.shape[0], 1), t / T)
    eps = model(torch.cat([x, tt], dim=1))
    mean = (1 / alphas[t]).sqrt() * (x - betas[t] / (1 - ac[t]).sqrt() * eps)
    if t == 0:
        return mean
    return mean + (0.5 * post_log_var[t]).exp() * noise

x = data(3, 4, seed=25)
traj = []
for i in reversed(range(0, T)):
    x = p_sample(x, i, data(3, 4, seed=100 + i))
    traj.append(x.norm().item())
report(x=x, traj=traj, plv=post_log_var, rev=list(reversed(range(0, 4))))
