import torch

def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

def apply_rotary_pos_emb(q, k, cos, sin, position_ids=None, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed

dim, base = 8, 10000
inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
position_ids = torch.arange(6)[None, :].expand(2, -1)
inv_freq_expanded = inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
position_ids_expanded = position_ids[:, None, :].float()
freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
emb = torch.cat((freqs, freqs), dim=-1)
cos, sin = emb.cos(), emb.sin()
q = data(2, 3, 6, 8, seed=1)
k = data(2, 3, 6, 8, seed=2)
qe, ke = apply_rotary_pos_emb(q, k, cos, sin)
scores = qe @ ke.transpose(-1, -2)
report(inv_freq=inv_freq, cos=cos[0, 5], qe=qe[1, 2], scores=scores[0, 0],
       norm_kept=bool(torch.allclose(qe.norm(dim=-1), q.norm(dim=-1), atol=1e-5)))
