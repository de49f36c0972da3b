import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.weight.size(-1),)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


class Attention(nn.Module):
    def __init__(self, d, nh, n_ctx):
        super().__init__()
        self.nh = nh
        self.c_attn = Conv1D(3 * d, d)
        self.c_proj = Conv1D(d, d)
        self.register_buffer("bias", torch.tril(torch.ones((n_ctx, n_ctx), dtype=torch.bool)).view(1, 1, n_ctx, n_ctx),
                             persistent=False)
        self.register_buffer("masked_bias", torch.tensor(-1e4), persistent=False)

    def forward(self, x, past=None):
        q, k, v = self.c_attn(x).split(x.size(-1), dim=2)
        sh = lambda t: t.view(t.size(0), t.size(1), self.nh, -1).permute(0, 2, 1, 3)
        q, k, v = sh(q), sh(k), sh(v)
        if past is not None:
            k = torch.cat((past[0], k), dim=-2)
            v = torch.cat((past[1], v), dim=-2)
        present = (k, v)
        w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(v.size(-1))
        nd, ns = w.size(-2), w.size(-1)
        mask = self.bias[:, :, ns - nd: ns, :ns]
        w = torch.where(mask, w, self.masked_bias.to(w.dtype))
        w = nn.functional.softmax(w, dim=-1)
        a = torch.matmul(w, v).permute(0, 2, 1, 3).contiguous()
        a = a.view(*a.size()[:-2], a.size(-2) * a.size(-1))
        return self.c_proj(a), present


class Block(nn.Module):
    def __init__(self, d, nh, n_ctx):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d, eps=1e-5)
        self.attn = Attention(d, nh, n_ctx)
        self.ln_2 = nn.LayerNorm(d, eps=1e-5)
        self.mlp = nn.Sequential(Conv1D(4 * d, d), nn.GELU(approximate="tanh"), Conv1D(d, 4 * d))

    def forward(self, x, past=None):
        a, present = self.attn(self.ln_1(x), past)
        x = x + a
        return x + self.mlp(self.ln_2(x)), present


class GPT2(nn.Module):
    def __init__(self, vocab=40, d=16, nh=2, n_ctx=32, nl=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(n_ctx, d)
        self.h = nn.ModuleList([Block(d, nh, n_ctx) for _ in range(nl)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, ids, past=None):
        past_len = 0 if past is None else past[0][0].size(-2)
        pos = torch.arange(past_len, past_len + ids.size(-1), dtype=torch.long).unsqueeze(0)
        x = self.wte(ids) + self.wpe(pos)
        presents = []
        for i, block in enumerate(self.h):
            x, p = block(x, None if past is None else past[i])
            presents.append(p)
        return self.lm_head(self.ln_f(x)), presents


def top_k_top_p_filter(logits, top_k=0, top_p=1.0, filter_value=-float("inf")):
    if top_k > 0:
        ind = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits[ind] = filter_value
    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(logits, descending=True)
        cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        remove = cum > top_p
        remove[..., 1:] = remove[..., :-1].clone()
        remove[..., 0] = 0
        ind = remove.scatter(1, sorted_idx, remove)
        logits = logits.masked_fill(ind, filter_value)
    return logits


model = det(GPT2(), scale=0.3).eval()
ids = torch.tensor([[1, 5, 7], [2, 2, 9]])
with torch.no_grad():
    logits, past = model(ids)
    greedy = [ids]
    nxt = logits[:, -1].argmax(-1, keepdim=True)
    for _ in range(5):
        greedy.append(nxt)
        logits, past = model(nxt, past)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
    full, _ = model(torch.cat(greedy, 1))
    filt = top_k_top_p_filter(full[:, -1].clone(), top_k=10, top_p=0.8)
    probs = F.softmax(filt, dim=-1)
    g = torch.Generator().manual_seed(0)
    sample = torch.multinomial(probs, num_samples=3, replacement=True, generator=g)
    kept = torch.isfinite(filt)
report(greedy=torch.cat(greedy, 1), kept=kept.sum(1), ok=bool(kept.gather(1, sample).all()), shape=sample.shape,
       probs_sum=probs.sum(-1), tied=model.lm_head.weight is model.wte.weight,
       sd=[k for k in model.state_dict() if "h.0" in k][:4], nsd=len(model.state_dict()))
