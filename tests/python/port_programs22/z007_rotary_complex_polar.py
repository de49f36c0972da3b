import torch

def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)

def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)

def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)

fc = precompute_freqs_cis(8, 10)
xq = data(2, 5, 3, 8, seed=1).requires_grad_()
xk = data(2, 5, 3, 8, seed=2)
q, k = apply_rotary_emb(xq, xk, fc[:5])
q.pow(2).sum().backward()
report(fc_dtype=fc.dtype, fc_real=fc.real[3], fc_imag=fc.imag[3], fc_abs=fc.abs()[9], q=q[1, 4, 2], k=k[0, 1, 0],
       grad=xq.grad[0, 2, 1], shape=q.shape)
