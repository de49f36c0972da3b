import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        return self._norm(x.float()).type_as(x) * self.weight


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    fc = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * fc).flatten(3)
    xk_out = torch.view_as_real(xk_ * fc).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


B, T, H, D = 2, 5, 2, 4
xq, xk = data(B, T, H, D, seed=1), data(B, T, H, D, seed=2)
fc = precompute_freqs_cis(D, T)
q, k = apply_rotary_emb(xq, xk, fc)
norm_ok = torch.allclose(q.norm(dim=-1), xq.norm(dim=-1), atol=1e-5)
scores = torch.einsum("bthd,bshd->bhts", q, k) / D ** 0.5
rms = RMSNorm(8)
ff = det(FeedForward(8, 16))
h = data(B, T, 8, seed=3)
y = ff(rms(h))
builtin = nn.RMSNorm(8, eps=1e-6)
hh = h.to(torch.bfloat16)
report(fc=torch.view_as_real(fc[2]), q=q[0, 1, 0], norm_ok=norm_ok, scores=scores[0, 0, 2], y=y[1, 4],
       builtin_same=torch.allclose(builtin(h), rms(h), atol=1e-6), bf=rms(hh).dtype, bfv=rms(hh)[0, 0, :3])
