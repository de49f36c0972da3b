import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, d, h, max_pos=32):
        super().__init__()
        self.h, self.dh = h, d // h
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.register_buffer("bias", torch.tril(torch.ones((max_pos, max_pos), dtype=torch.bool)).view(1, 1, max_pos, max_pos),
                             persistent=False)
        self.register_buffer("masked_bias", torch.tensor(-1e4), persistent=False)

    def forward(self, x, layer_past=None, attention_mask=None, use_cache=False):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.h, self.dh).transpose(1, 2) for t in (q, k, v))
        if layer_past is not None:
            k = torch.cat((layer_past[0], k), dim=-2)
            v = torch.cat((layer_past[1], v), dim=-2)
        present = (k, v) if use_cache else None
        w = torch.matmul(q, k.transpose(-1, -2)) / torch.full([], v.size(-1) ** 0.5, dtype=q.dtype)
        ql, kl = q.size(-2), k.size(-2)
        causal = self.bias[:, :, kl - ql:kl, :kl]
        mask_value = torch.finfo(w.dtype).min
        w = torch.where(causal, w.to(w.dtype), torch.full([], mask_value, dtype=w.dtype))
        if attention_mask is not None:
            w = w + attention_mask
        w = F.softmax(w, dim=-1)
        out = torch.matmul(w, v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(out), present


class Model(nn.Module):
    def __init__(self, vocab=13, d=8, n=2):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(32, d)
        self.h = nn.ModuleList([nn.ModuleDict({"ln_1": nn.LayerNorm(d), "attn": Attn(d, 2), "ln_2": nn.LayerNorm(d),
                                               "mlp": nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))})
                                for _ in range(n)])
        self.ln_f = nn.LayerNorm(d)

    def forward(self, input_ids, past_key_values=None, attention_mask=None, use_cache=True):
        past_length = 0 if past_key_values is None else past_key_values[0][0].size(-2)
        if past_key_values is None:
            past_key_values = tuple([None] * len(self.h))
        pos = torch.arange(past_length, input_ids.size(-1) + past_length, dtype=torch.long).unsqueeze(0)
        if attention_mask is not None:
            attention_mask = attention_mask[:, None, None, :].to(dtype=torch.float32)
            attention_mask = (1.0 - attention_mask) * torch.finfo(torch.float32).min
        x = self.wte(input_ids) + self.wpe(pos)
        presents = ()
        for block, past in zip(self.h, past_key_values):
            a, present = block["attn"](block["ln_1"](x), past, attention_mask, use_cache)
            x = x + a
            x = x + block["mlp"](block["ln_2"](x))
            presents = presents + (present,)
        return self.ln_f(x) @ self.wte.weight.T, presents


m = det(Model(), scale=0.3).eval()
ids = torch.tensor([[4, 5, 6], [7, 8, 9]])
am = torch.ones(2, 3, dtype=torch.long)
out = ids
with torch.no_grad():
    logits, past = m(ids, attention_mask=am)
    for _ in range(4):
        nxt = torch.argmax(logits[:, -1, :], dim=-1).unsqueeze(-1)
        out = torch.cat([out, nxt], dim=-1)
        am = torch.cat([am, am.new_ones((am.shape[0], 1))], dim=-1)
        logits, past = m(nxt, past_key_values=past, attention_mask=am)
    full, _ = m(out, attention_mask=am)
report(out=out, last=logits[:, -1], match=torch.allclose(full[:, -1], logits[:, -1], atol=1e-4), n_past=len(past),
       past_shape=past[0][0].shape, fmin=torch.finfo(torch.float32).min, f16=torch.finfo(torch.float16).min)
