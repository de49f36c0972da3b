import torch

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)

class Rotary(torch.nn.Module):
    def __init__(self, dim, max_pos=32, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float().to(torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_pos, dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, x, position_ids):
        cos = self.cos_cached[position_ids].unsqueeze(1).to(dtype=x.dtype)
        sin = self.sin_cached[position_ids].unsqueeze(1).to(dtype=x.dtype)
        return x * cos + rotate_half(x) * sin

rot = Rotary(8)
q = data(1, 2, 3, 8, seed=213)
pos = torch.arange(5, 8).unsqueeze(0)
out = rot(q, pos)
outb = rot(q.to(torch.bfloat16), pos)
full = rot(data(1, 2, 8, 8, seed=214), torch.arange(8).unsqueeze(0))
report(out=out[0, 1], outb_dtype=outb.dtype, outb=outb[0, 0, 0].float(), full=full[0, 0, 7], sd=list(rot.state_dict().keys()))
