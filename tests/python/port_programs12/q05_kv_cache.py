import torch
import torch.nn as nn
from torch.nn import functional as F
class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd=16, n_head=4, block_size=16):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd); self.c_proj = nn.Linear(n_embd, n_embd); self.n_head = n_head; self.n_embd = n_embd
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))
    def forward(self, x, past=None):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if past is not None:
            pk, pv = past
            k = torch.cat((pk, k), dim=-2); v = torch.cat((pv, v), dim=-2)
        present = (k, v)
        S = k.size(-2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (k.size(-1) ** 0.5))
        att = att.masked_fill(self.bias[:, :, S - T:S, :S] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y), present
class Block(nn.Module):
    def __init__(self):
        super().__init__(); self.ln_1 = nn.LayerNorm(16); self.attn = CausalSelfAttention(); self.ln_2 = nn.LayerNorm(16)
        self.mlp = nn.Sequential(nn.Linear(16, 64), nn.GELU(approximate="tanh"), nn.Linear(64, 16))
    def forward(self, x, past=None):
        a, present = self.attn(self.ln_1(x), past)
        x = x + a
        return x + self.mlp(self.ln_2(x)), present
class GPT(nn.Module):
    def __init__(self, V=25):
        super().__init__()
        self.wte = nn.Embedding(V, 16); self.wpe = nn.Embedding(16, 16); self.h = nn.ModuleList([Block() for _ in range(2)]); self.ln_f = nn.LayerNorm(16)
        self.lm_head = nn.Linear(16, V, bias=False); self.wte.weight = self.lm_head.weight
    def forward(self, idx, past=None, start=0):
        pos = torch.arange(start, start + idx.size(1), dtype=torch.long, device=idx.device).unsqueeze(0)
        x = self.wte(idx) + self.wpe(pos)
        presents = []
        for i, b in enumerate(self.h):
            x, p = b(x, None if past is None else past[i]); presents.append(p)
        return self.lm_head(self.ln_f(x)), presents
model = det(GPT(), scale=0.3).eval()
idx = ints(25, 2, 4)
with torch.no_grad():
    full = idx
    for _ in range(6):
        logits, _ = model(full[:, -16:])
        full = torch.cat((full, logits[:, -1, :].argmax(dim=-1, keepdim=True)), dim=1)
    cached = idx
    logits, past = model(idx)
    nxt = logits[:, -1:].argmax(-1)
    steps = []
    for t in range(6):
        cached = torch.cat([cached, nxt], 1)
        logits, past = model(nxt, past, start=cached.size(1) - 1)
        steps.append(logits[:, -1])
        nxt = logits[:, -1:].argmax(-1)
    recompute, _ = model(cached)
report(full=full, cached=cached, same=bool(torch.equal(full, cached)), diff=(recompute[:, -1] - steps[-1]).abs().max().item() < 1e-4,
       past_shape=past[0][0].shape, step=steps[2], nsd=sorted(model.state_dict().keys()))
