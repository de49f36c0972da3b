import torch
import torch.nn as nn
T = 10
betas = torch.linspace(1e-4, 0.2, T)
alphas = 1.0 - betas
ac = torch.cumprod(alphas, dim=0)
ac_prev = torch.cat([torch.tensor([1.0]), ac[:-1]])
post_var = betas * (1.0 - ac_prev) / (1.0 - ac)
def extract(a, t, shape):
    return a.gather(-1, t).reshape(t.shape[0], *((1,) * (len(shape) - 1)))
eps_model = det(nn.Sequential(nn.Linear(3, 16), nn.SiLU(), nn.Linear(16, 2)), 0, 0.2)
def model(x, t):
    return eps_model(torch.cat([x, (t.float() / T).unsqueeze(1)], 1))
x0 = data(4, 2)
t = torch.tensor([0, 3, 6, 9])
noise = data(4, 2, seed=5)
xt = extract(ac, t, x0.shape).sqrt() * x0 + extract(1 - ac, t, x0.shape).sqrt() * noise
loss = nn.functional.mse_loss(model(xt, t), noise)
loss.backward()
x = data(4, 2, seed=7)
with torch.no_grad():
    for i in reversed(range(T)):
        tt = torch.full((4,), i, dtype=torch.long)
        eps = model(x, tt)
        mean = (1 / extract(alphas, tt, x.shape).sqrt()) * (x - extract(betas, tt, x.shape) / extract(1 - ac, tt, x.shape).sqrt() * eps)
        z = data(4, 2, seed=100 + i) if i > 0 else torch.zeros_like(x)
        x = mean + extract(post_var, tt, x.shape).sqrt() * z
report(ac=ac[::3], post_var=post_var[:3], xt=xt[1], loss=loss, x=x, g=eps_model[0].weight.grad[0])
