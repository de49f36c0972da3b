import math
import torch
import torch.nn as nn
from torch.nn import functional as F
class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size, flash):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd); self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head, self.n_embd, self.flash = n_head, n_embd, flash
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))
    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if self.flash:
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
            att = F.softmax(att, dim=-1)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)
class GPT(nn.Module):
    def __init__(self, vocab=16, n_embd=12, n_head=3, block_size=8, flash=False):
        super().__init__()
        self.block_size = block_size
        self.transformer = nn.ModuleDict(dict(wte=nn.Embedding(vocab, n_embd), wpe=nn.Embedding(block_size, n_embd),
                                              ln=nn.LayerNorm(n_embd), attn=CausalSelfAttention(n_embd, n_head, block_size, flash), ln_f=nn.LayerNorm(n_embd)))
        self.lm_head = nn.Linear(n_embd, vocab, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        x = x + self.transformer.attn(self.transformer.ln(x))
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        else:
            logits = self.lm_head(x[:, [-1], :]); loss = None
        return logits, loss
    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None, greedy=False):
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= self.block_size else idx[:, -self.block_size:]
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float('Inf')
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.argmax(probs, -1, keepdim=True) if greedy else torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx
res = {}
data_ = ints(16, 200)
def get_batch(i):
    ix = torch.tensor([3 + i, 50 + 2 * i, 120 - i])
    x = torch.stack([data_[j:j + 8] for j in ix]); y = torch.stack([data_[j + 1:j + 9] for j in ix])
    return x, y
for flash in (False, True):
    model = det(GPT(flash=flash), 0, 0.3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, betas=(0.9, 0.95), weight_decay=0.1)
    losses = []
    for it in range(4):
        X, Y = get_batch(it)
        logits, loss = model(X, Y)
        optimizer.zero_grad(set_to_none=True); loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step(); losses.append(loss.item())
    model.eval()
    g = model.generate(torch.zeros((1, 1), dtype=torch.long), 10, greedy=True)
    s = model.generate(torch.zeros((2, 1), dtype=torch.long), 10, top_k=3)
    res[str(flash)] = dict(losses=losses, g=g, s=list(s.shape), inrange=bool(((s >= 0) & (s < 16)).all()))
report(**res)
