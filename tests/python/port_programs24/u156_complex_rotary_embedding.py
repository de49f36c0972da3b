import torch


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


fc = precompute_freqs_cis(8, 5)
xq = data(2, 5, 3, 8).requires_grad_()
xk = data(2, 5, 3, 8, seed=3)
q, k = apply_rotary_emb(xq, xk, fc)
scores = torch.einsum("bqhd,bkhd->bhqk", q, k)
scores.sum().backward()
norm_kept = torch.allclose(q.norm(dim=-1), xq.detach().norm(dim=-1), atol=1e-5)
report(fc=torch.view_as_real(fc[2]), q=q[0, 1, 0], scores=scores[0, 0, 1], norm_kept=norm_kept, grad=xq.grad[1, 2, 0], dtype=fc.dtype)
