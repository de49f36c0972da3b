import torch
import torch.nn as nn

T = 50
betas = torch.linspace(1e-4, 0.02, T)
ac = torch.cumprod(1 - betas, 0)
model = det(nn.Sequential(nn.Linear(3, 12), nn.GELU(), nn.Linear(12, 2)), scale=0.3)


@torch.no_grad()
def ddim_sample(x, steps=5, eta=0.0):
    times = torch.linspace(T - 1, 0, steps).long()
    traj = [x]
    for i, t in enumerate(times):
        eps = model(torch.cat([x, torch.full((x.size(0), 1), t.item() / T)], dim=1))
        a_t = ac[t]
        a_prev = ac[times[i + 1]] if i + 1 < len(times) else torch.tensor(1.0)
        x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
        traj.append(x)
    return x, torch.stack(traj)


x_T = data(4, 2)
out, traj = ddim_sample(x_T)
report(times=torch.linspace(T - 1, 0, 5).long(), out=out, traj_norm=traj.norm(dim=-1), grad=out.requires_grad)
