import math
import torch
import torch.nn as nn
import torch.nn.functional as F
class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)
    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)
class Attention(nn.Module):
    def __init__(self, n_embd, n_head, n_ctx):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones((n_ctx, n_ctx), dtype=torch.bool)).view(1, 1, n_ctx, n_ctx), persistent=False)
        self.register_buffer("masked_bias", torch.tensor(-1e4), persistent=False)
        self.n_head, self.split_size = n_head, n_embd
        self.c_attn = Conv1D(3 * n_embd, n_embd); self.c_proj = Conv1D(n_embd, n_embd)
    def _attn(self, q, k, v):
        w = torch.matmul(q, k) / (float(v.size(-1)) ** 0.5)
        nd, ns = w.size(-2), w.size(-1)
        mask = self.bias[:, :, ns - nd: ns, :ns]
        w = torch.where(mask, w, self.masked_bias.to(w.dtype))
        w = nn.Softmax(dim=-1)(w)
        return torch.matmul(w, v)
    def split_heads(self, x, k=False):
        x = x.view(*x.size()[:-1], self.n_head, x.size(-1) // self.n_head)
        return x.permute(0, 2, 3, 1) if k else x.permute(0, 2, 1, 3)
    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(*x.size()[:-2], x.size(-2) * x.size(-1))
    def forward(self, x, layer_past=None):
        x = self.c_attn(x)
        query, key, value = x.split(self.split_size, dim=2)
        query = self.split_heads(query); key = self.split_heads(key, k=True); value = self.split_heads(value)
        if layer_past is not None:
            past_key, past_value = layer_past[0].transpose(-2, -1), layer_past[1]
            key = torch.cat((past_key, key), dim=-1); value = torch.cat((past_value, value), dim=-2)
        present = torch.stack((key.transpose(-2, -1), value))
        a = self._attn(query, key, value)
        return self.c_proj(self.merge_heads(a)), present
class Block(nn.Module):
    def __init__(self, n_embd, n_head, n_ctx):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, eps=1e-5); self.attn = Attention(n_embd, n_head, n_ctx)
        self.ln_2 = nn.LayerNorm(n_embd, eps=1e-5)
        self.mlp = nn.Sequential(Conv1D(4 * n_embd, n_embd), nn.GELU(approximate="tanh"), Conv1D(n_embd, 4 * n_embd))
    def forward(self, x, layer_past=None):
        a, present = self.attn(self.ln_1(x), layer_past=layer_past)
        x = x + a
        return x + self.mlp(self.ln_2(x)), present
class GPT2(nn.Module):
    def __init__(self, vocab=20, n_embd=16, n_head=2, n_ctx=16, n_layer=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, n_embd); self.wpe = nn.Embedding(n_ctx, n_embd)
        self.h = nn.ModuleList([Block(n_embd, n_head, n_ctx) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab, bias=False)
        self.lm_head.weight = self.wte.weight
    def forward(self, input_ids, past=None):
        if past is None:
            past_length = 0; past = [None] * len(self.h)
        else:
            past_length = past[0][0].size(-2)
        position_ids = torch.arange(past_length, input_ids.size(-1) + past_length, dtype=torch.long).unsqueeze(0).expand_as(input_ids)
        h = self.wte(input_ids) + self.wpe(position_ids)
        presents = []
        for block, layer_past in zip(self.h, past):
            h, present = block(h, layer_past); presents.append(present)
        return self.lm_head(self.ln_f(h)), presents
def top_k_top_p_filtering(logits, top_k=0, top_p=0.0, filter_value=-float('Inf')):
    top_k = min(top_k, logits.size(-1))
    if top_k > 0:
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits[indices_to_remove] = filter_value
    if top_p > 0.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        logits[indices_to_remove] = filter_value
    return logits
model = det(GPT2(), 0, 0.3); model.eval()
ctx = torch.tensor([[3, 7, 1], [4, 4, 9]])
with torch.no_grad():
    out_full = ctx; past = None; generated = ctx; nxt = ctx
    for _ in range(5):
        logits, past = model(nxt, past=past)
        nxt = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True)
        generated = torch.cat((generated, nxt), dim=1)
    full_logits, _ = model(generated[:, :-1])
    greedy_check = torch.argmax(full_logits[:, 2:, :], dim=-1)
    last = full_logits[:, -1, :].clone()
    filt = top_k_top_p_filtering(last.clone(), top_k=5)
    filt2 = top_k_top_p_filtering(last.clone(), top_p=0.7)
    probs = F.softmax(filt2, dim=-1)
    torch.manual_seed(0)
    sample = torch.multinomial(probs, num_samples=1)
report(generated=generated, check=greedy_check, kept=torch.isfinite(filt).sum(-1), kept2=(filt2 > -float('inf')).sum(-1),
       probs=probs, sample_ok=bool(probs.gather(1, sample).gt(0).all()), past_shape=list(past[0].shape),
       nparams=sum(p.numel() for p in model.parameters()), tied=model.lm_head.weight is model.wte.weight)
