import torch


def posenc(x, L):
    freqs = 2.0 ** torch.arange(L)
    xb = x[..., None, :] * freqs[:, None] * torch.pi
    return torch.cat([x, torch.sin(xb).flatten(-2), torch.cos(xb).flatten(-2)], -1)


def render(sigma, rgb, z):
    dists = torch.cat([z[..., 1:] - z[..., :-1], torch.full_like(z[..., :1], 1e10)], -1)
    alpha = 1.0 - torch.exp(-torch.relu(sigma) * dists)
    T = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)[..., :-1]
    w = alpha * T
    return (w[..., None] * rgb).sum(-2), (w * z).sum(-1), w.sum(-1)


rays_o = torch.zeros(3, 3)
rays_d = torch.nn.functional.normalize(data(3, 3), dim=-1)
z = torch.linspace(2.0, 6.0, 8).expand(3, 8)
pts = rays_o[:, None] + rays_d[:, None] * z[..., None]
enc = posenc(pts, 3)
sigma = (data(3, 8, seed=4) * 2).requires_grad_()
rgb = torch.sigmoid(data(3, 8, 3, seed=5))
color, depth, acc = render(sigma, rgb, z)
color.sum().backward()
report(enc_shape=list(enc.shape), enc=enc[0, 0, :5], color=color.detach(), depth=depth.detach(), acc=acc.detach(), g=sigma.grad[0])
