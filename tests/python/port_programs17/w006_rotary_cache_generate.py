import torch


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class Rotary(torch.nn.Module):
    def __init__(self, dim, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        pos = position_ids[:, None, :].float()
        freqs = (inv @ pos).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


def apply(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


rot = Rotary(8)
q = data(2, 2, 5, 8, seed=1)
k = data(2, 2, 5, 8, seed=2)
pos = torch.arange(5).unsqueeze(0).expand(2, -1)
cos, sin = rot(q, pos)
q2, k2 = apply(q, k, cos, sin)
s = q2 @ k2.transpose(-1, -2)
shifted = torch.arange(3, 8).unsqueeze(0).expand(2, -1)
c3, s3 = rot(q, shifted)
q3, k3 = apply(q, k, c3, s3)
report(q2=q2[0, 0], s=s[1, 1], rel_invariant=torch.allclose(s, q3 @ k3.transpose(-1, -2), atol=1e-4),
       inv=rot.inv_freq, bf=rot(q.bfloat16(), pos)[0].dtype)
