import torch
import torch.nn.functional as F

T = 50
betas = torch.linspace(1e-4, 0.02, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, axis=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus = torch.sqrt(1.0 - alphas_cumprod)
posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)

def extract(a, t, x_shape):
    batch_size = t.shape[0]
    out = a.gather(-1, t.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)

x0 = data(3, 1, 4, 4, seed=18)
t = torch.tensor([0, 25, 49])
noise = data(3, 1, 4, 4, seed=19)
xt = extract(sqrt_alphas_cumprod, t, x0.shape) * x0 + extract(sqrt_one_minus, t, x0.shape) * noise
report(ac=alphas_cumprod[::7], prev=alphas_cumprod_prev[:3], post=posterior_variance[[0, 1, 48, 49]],
       e=extract(sqrt_recip_alphas, t, x0.shape).flatten(), xt=xt[:, 0, 0], shape=extract(betas, t, x0.shape).shape)
